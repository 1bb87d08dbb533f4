import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';
import { buildTestApp } from './helpers.js';

/**
 * The served OpenAPI document, JSON and YAML, through Redocly CLI (`recommended`, redocly.yaml)
 * and Spectral (`spectral:oas`, .spectral.yaml), both devDependencies run offline. Errors: none
 * but Redocly's no-path-trailing-slash (the hub's paths end in a slash and stay); warnings: only
 * those docs/api.md ("Client generation") lists with why.
 */
const ALLOWED_ERRORS = new Set(['no-path-trailing-slash']);
const KEPT_WARNINGS = {
  redocly: new Set(['operation-4xx-response', 'no-server-example.com', 'no-ambiguous-paths']),
  spectral: new Set(['path-keys-no-trailing-slash', 'info-contact']),
};
const run = promisify(execFile);
// No telemetry, update check or analytics from the linters: the suite runs offline.
const env = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  SCARF_ANALYTICS: 'false',
  DO_NOT_TRACK: '1',
};
const bin = (path: string) => join(projectRoot, 'node_modules', path);

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolhub-lint-'));
  const app = await buildTestApp({}, true);
  try {
    writeFileSync(join(dir, 'openapi.json'), (await app.inject({ url: '/api/openapi.json' })).body);
    writeFileSync(join(dir, 'openapi.yaml'), (await app.inject({ url: '/api/openapi.yaml' })).body);
  } finally {
    await app.close();
  }
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Problem {
  rule: string;
  severity: 'error' | 'warning' | 'other';
}

/** A linter's JSON report on stdout; both exit non-zero when they find errors, the report says which. */
function lint(args: string[]): Promise<{ stdout: string }> {
  return run(process.execPath, args, {
    cwd: projectRoot,
    env,
    maxBuffer: 64 << 20,
    timeout: 100_000,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
}

async function redocly(file: string): Promise<Problem[]> {
  const args = [bin('@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'];
  const out = await lint(args);
  const report = JSON.parse(out.stdout) as { problems: { ruleId: string; severity: string }[] };
  return report.problems.map((p) => ({
    rule: p.ruleId,
    severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warning' : 'other',
  }));
}

async function spectral(file: string): Promise<Problem[]> {
  const args = [
    bin('@stoplight/spectral-cli/dist/index.js'),
    'lint',
    file,
    '-r',
    '.spectral.yaml',
    '-f',
    'json',
  ];
  const out = await lint(args);
  // Spectral severities: 0 error, 1 warning, 2 information, 3 hint.
  const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('['))) as {
    code: string;
    severity: number;
  }[];
  return report.map((p) => ({
    rule: String(p.code),
    severity: p.severity === 0 ? 'error' : p.severity === 1 ? 'warning' : 'other',
  }));
}

const rules = (problems: Problem[], severity: Problem['severity']) =>
  [...new Set(problems.filter((p) => p.severity === severity).map((p) => p.rule))].sort();

describe.each(['openapi.json', 'openapi.yaml'])('%s', (name) => {
  it('passes Redocly recommended: no error but trailing slashes, only the warnings kept', async () => {
    const problems = await redocly(join(dir, name));
    expect(rules(problems, 'error').filter((r) => !ALLOWED_ERRORS.has(r))).toEqual([]);
    expect(rules(problems, 'warning').filter((r) => !KEPT_WARNINGS.redocly.has(r))).toEqual([]);
  }, 120_000);

  it('passes Spectral spectral:oas: no error, only the warnings kept', async () => {
    const problems = await spectral(join(dir, name));
    expect(rules(problems, 'error')).toEqual([]);
    expect(rules(problems, 'warning').filter((r) => !KEPT_WARNINGS.spectral.has(r))).toEqual([]);
  }, 120_000);
});
