import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';
import { REDIS_URL, redisPrefix } from './helpers.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

/**
 * The README's shell blocks, tried as a newcomer would: every command in them is either
 * run here as written (the curl lines against a started hub, `npm run keys` with
 * API_KEYS_FILE naming a temporary file instead of the project's ./api-keys.json, which
 * test/keys-script.test.ts covers), run as its equivalent (ADAPTED), or listed in NOT_RUN
 * with the reason. A command added to the README and none of these fails the first test.
 */
const NOT_RUN: Record<string, string> = {
  'npm ci && npm start':
    'npm ci reinstalls node_modules under the running suite, and npm start rebuilds dist/ that other test files are running; ' +
    'the hub it starts (node dist/src/server.js, in-process stores) is what startInstance starts below',
  'npm test': 'this file is part of it',
  'npx -y -p node@22 -p @modelcontextprotocol/inspector@2.12.0 -- mcp-inspector --cli http://localhost:8080/mcp --transport http --method tools/list':
    'npx fetches Node 22 and the Inspector from the registry (a minute); CI runs Inspector 2.12 the same way against a built hub (bash scripts/mcp-inspector-check.sh)',
  'npm run test:stress': 'minutes of fault and load cases; CI runs it (.ci/run)',
  'npm run check': 'lint, import rules, typecheck and the unit project; CI runs it first (.ci/run)',
  'npm run lint': "the whole tree's lint and format check; CI runs it (.ci/run)",
  'npm run typecheck': 'strict tsc over the whole tree; CI runs it (.ci/run)',
  'npm run check:imports': 'dependency-cruiser over the whole tree; CI runs it (.ci/run)',
  'npm run docs': 'rewrites the generated sections; test/docs.test.ts checks they equal what it makes',
  'npm run examples': "rewrites every expectedOutput.json; test/examples.test.ts checks each tool's example",
  'npm run new-tool -- <id>': 'writes into tools/; test/new-tool.test.ts scaffolds into a temporary folder',
  'npm run bench':
    'minutes of load on the cores the suite shares; CI runs the harness with --quick (.ci/run)',
  'bash .ci/run': 'CI itself: it runs npm test, which runs this file',
};
const ADAPTED: Record<string, string> = {
  'API_KEYS_FILE=./api-keys.json npm start':
    'npm start is the build (npm test made it) and node dist/src/server.js: started by startInstance with API_KEYS_FILE naming the file the keys commands wrote',
};
const RUN = [/^curl /, /^npm run keys -- /];

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
/** The commands of the README's sh blocks: continuation lines joined, comments cut. */
const commands = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) =>
  m[1]!
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#')),
);

const bash = (command: string, env: Record<string, string> = {}) =>
  spawnSync('bash', ['-c', command], { cwd: projectRoot, encoding: 'utf8', env: { ...process.env, ...env } });

let hub: Instance | undefined;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolhub-readme-'));
  // With the hub's Redis: the README's job lines make real jobs.
  hub = await startInstance({ REDIS_URL, REDIS_PREFIX: redisPrefix() });
});
afterAll(async () => {
  await stopInstance(hub);
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's commands", () => {
  it('are each run here, run as their equivalent, or listed as not run with why', () => {
    expect(commands.length).toBeGreaterThan(10);
    const unaccounted = commands.filter(
      (c) => !(c in NOT_RUN) && !(c in ADAPTED) && !RUN.some((r) => r.test(c)),
    );
    expect(unaccounted).toEqual([]);
    const stale = [...Object.keys(NOT_RUN), ...Object.keys(ADAPTED)].filter((c) => !commands.includes(c));
    expect(stale).toEqual([]);
  });

  it('the quick start curl lines answer as the README says', () => {
    const curls = commands.filter((c) => c.startsWith('curl '));
    expect(curls.length).toBeGreaterThanOrEqual(3);
    for (const line of curls) {
      const r = bash(line.replaceAll('http://localhost:8080', hub!.base));
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      const answer = JSON.parse(r.stdout) as { ok?: boolean };
      if (line.includes('/api/tools/run/') || line.includes('/api/pipelines/') || line.includes('-X POST'))
        expect(answer, line).toMatchObject({ ok: true });
      if (line.includes('/api/jobs/')) {
        expect(answer, line).toMatchObject({ id: expect.stringMatching(/^job_/), kind: 'run' });
        // The same key and body again: the same job (Idempotency-Key).
        expect(JSON.parse(bash(line.replaceAll('http://localhost:8080', hub!.base)).stdout)).toMatchObject({
          id: (answer as { id: string }).id,
        });
      }
    }
  });

  it('securing the hub: a tier, a key in it, and a hub that takes the key with the tier’s limits', async () => {
    const file = join(dir, 'api-keys.json');
    const outputs: string[] = [];
    for (const line of commands.filter((c) => c.startsWith('npm run keys -- '))) {
      const r = bash(line, { API_KEYS_FILE: file });
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      outputs.push(r.stdout.trim());
    }
    // npm prints its own header lines first; the key is the script's one line of output.
    const key = outputs.flatMap((o) => o.split('\n')).find((l) => l.startsWith('th_'));
    expect(key).toBeDefined();
    let keyed: Instance | undefined;
    try {
      keyed = await startInstance({ API_KEYS_FILE: file });
      const url = `${keyed.base}/api/tools/run/?toolId=token-counter&a=hi`;
      expect((await fetch(url)).status).toBe(401);
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      // The README's tier multiplies every limit by 10 (the default hub has no tiers).
      const plain = await fetch(`${hub!.base}/api/tools/run/?toolId=token-counter&a=hi`);
      expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(
        10 * Number(plain.headers.get('x-ratelimit-limit')),
      );
    } finally {
      await stopInstance(keyed);
    }
  }, 60_000);
});
