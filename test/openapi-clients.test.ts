import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient as heyApi } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';
import { scanTools } from '../src/registry.js';
import {
  type ClientCall,
  fieldToRead,
  heyApiSource,
  openapiFetchSource,
  tsconfigFor,
} from './client-sources.js';
import { toolExamples } from './dedicated-examples.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

/**
 * Clients generated from the served document with default flags (docs/api.md, "Client
 * generation"): openapi-typescript + openapi-fetch, and @hey-api/openapi-ts. Each calls every
 * tool's dedicated endpoint with its basic example and reads a typed field of the result; the
 * code must typecheck strictly (0 errors) and its calls succeed against a started hub. The
 * generated code lives in a temporary folder and is never committed.
 */
const exec = promisify(execFile);
// Generous bounds for a loaded 2-core machine; `timeout` kills a child still running past it.
const run = (file: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  exec(file, args, { ...opts, timeout: 200_000, maxBuffer: 64 << 20 });
const examples = toolExamples(await scanTools());

let hub: Instance | undefined;
let dir: string;
let calls: ClientCall[];
beforeAll(async () => {
  hub = await startInstance({});
  dir = mkdtempSync(join(tmpdir(), 'toolhub-clients-'));
  // The generated code imports openapi-fetch and the TypeScript types from the project's own.
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  const doc = (await (await fetch(`${hub.base}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  calls = examples.map(({ def, examples: ex, call }) => ({
    call,
    field: fieldToRead(def, ex.expectedOutput),
    operationId: doc.paths[call.path]![call.method.toLowerCase()]!.operationId,
  }));
});
afterAll(async () => {
  await stopInstance(hub);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `tsc --noEmit` on the file, then the file itself (tsx) against the hub: what it read, by toolId. */
async function compileAndCall(file: string): Promise<Record<string, unknown>> {
  writeFileSync(join(dir, `tsconfig.${file}.json`), tsconfigFor(file));
  const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = await run(process.execPath, [tsc, '-p', `tsconfig.${file}.json`], { cwd: dir }).catch(
    (err: { stdout?: string; stderr?: string }) => ({ stdout: `${err.stdout}${err.stderr}`, failed: true }),
  );
  expect(checked.stdout, 'tsc --noEmit').toBe('');
  expect('failed' in checked).toBe(false);
  const tsx = join(projectRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const { stdout } = await run(process.execPath, [tsx, file], {
    cwd: dir,
    env: { ...process.env, HUB: hub!.base },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

function expectEveryTool(read: Record<string, unknown>): void {
  expect(Object.keys(read).sort()).toEqual(examples.map((e) => e.def.id));
  for (const { def, examples: ex } of examples) {
    const field = fieldToRead(def, ex.expectedOutput);
    expect(read[def.id], `${def.id}.${field}`).toBeDefined();
    if (!(def.volatileResultFields ?? []).includes(field))
      expect(read[def.id], `${def.id}.${field}`).toEqual(ex.expectedOutput[field]);
  }
}

describe('generated clients', () => {
  it('openapi-typescript + openapi-fetch: typed results, 0 type errors, every call succeeds', async () => {
    const ast = await openapiTS(readFileSync(join(dir, 'openapi.json'), 'utf8'));
    writeFileSync(join(dir, 'schema.d.ts'), astToString(ast));
    writeFileSync(join(dir, 'fetch-client.ts'), openapiFetchSource(calls));
    expectEveryTool(await compileAndCall('fetch-client.ts'));
  }, 240_000);

  it('@hey-api/openapi-ts: typed results, 0 type errors, every call succeeds', async () => {
    await heyApi({ input: join(dir, 'openapi.json'), output: join(dir, 'hey'), logs: { level: 'silent' } });
    writeFileSync(join(dir, 'hey-client.ts'), heyApiSource(calls));
    expectEveryTool(await compileAndCall('hey-client.ts'));
  }, 240_000);
});
