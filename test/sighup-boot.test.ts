/**
 * SIGHUP during the boot (issue 19): its default action ends a process, and the hub's
 * handler (re-read the API keys, docs/operations.md "Securing the hub") once went in only
 * after the app was built. A real process from dist/; a plug-in tool whose definition
 * waits for a gate file holds the boot inside buildApp for as long as the test needs, so
 * the signals land there without any timing guess.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { apiKeysFile, freePort } from './helpers.js';
import { serverJs } from './server-process.js';

const GATED_TOOL = `import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
process.stderr.write('fx-boot-gate: loading\\n');
const gate = new URL('../../gate', import.meta.url);
while (!existsSync(gate)) await sleep(10);
export default {
  id: 'fx-boot-gate', title: 'Fixture fx-boot-gate', description: 'Test-only tool: holds the boot until its gate opens',
  input: { type: 'object', properties: { text: { type: 'string', description: 'input text' } }, required: ['text'], additionalProperties: false },
  output: { type: 'object', additionalProperties: true },
  policy: { limit: 1000, burst: 0, inputMaxBytes: 4096, timeoutMs: 300 },
  endpoints: [{ path: '/api/fx-boot-gate/', methods: ['POST'], summary: 'echo' }], deterministic: true,
};
`;

/** Whether the process has a handler for SIGHUP (signal 1: bit 0 of SigCgt, Linux). */
function catchesHup(pid: number): boolean {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return false; // it ended: the caller says so
  }
  const line = status.match(/^SigCgt:\s*([0-9a-f]+)$/m);
  return line ? (BigInt(`0x${line[1]}`) & 1n) === 1n : false;
}

/**
 * One safety bound for the whole test, well inside its timeout, so that the finally below
 * always runs and kills the server (each step takes a second or two even on a loaded machine).
 */
const BOUND_MS = 60_000;
let deadline = 0;

async function until(
  what: string,
  proc: ChildProcess,
  check: () => boolean | Promise<boolean>,
  stderr: () => string,
) {
  while (!(await check())) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(
        `the server ended (${proc.signalCode ?? proc.exitCode}) waiting for ${what}: ${stderr()}`,
      );
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('SIGHUP during the boot', () => {
  it(
    'neither kills the process nor is lost: it becomes ready, reloads the keys and stays up',
    async () => {
      deadline = Date.now() + BOUND_MS;
      const dir = await mkdtemp(join(tmpdir(), 'toolhub-hup-'));
      await mkdir(join(dir, 'tools', 'fx-boot-gate'), { recursive: true });
      await writeFile(join(dir, 'tools', 'fx-boot-gate', 'tool.js'), GATED_TOOL);
      await writeFile(
        join(dir, 'tools', 'fx-boot-gate', 'run.js'),
        'export default (i) => ({ text: i.text });\n',
      );
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
        EXTRA_TOOL_DIRS: join(dir, 'tools'),
        API_KEYS_FILE: await apiKeysFile([{ id: 'team-a', key: 'k'.repeat(32) }]),
      };
      const proc = spawn(process.execPath, [serverJs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      let stdout = '';
      let stderr = '';
      proc.stdout?.on('data', (d) => {
        stdout += String(d);
      });
      proc.stderr?.on('data', (d) => {
        stderr += String(d);
      });
      const hup = () => proc.kill('SIGHUP');
      const err = () => stderr;
      try {
        // 1. As soon as a handler is in: while the app's modules load (before any tool's).
        await until(
          'a SIGHUP handler or the boot',
          proc,
          () => catchesHup(proc.pid!) || stderr.includes('loading'),
          err,
        );
        hup();
        // 2. Inside buildApp, while the tool definitions load.
        await until(
          'the tool definitions to load',
          proc,
          () => stderr.includes('fx-boot-gate: loading'),
          err,
        );
        for (let i = 0; i < 3; i++) {
          hup();
          await sleep(20);
        }
        await writeFile(join(dir, 'gate'), '');
        // 3. Through the rest of the boot (plugins, warm-up, listen), until ready.
        await until(
          '/readyz',
          proc,
          async () => {
            hup();
            const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) }).catch(
              () => null,
            );
            return res?.status === 200;
          },
          err,
        );
        // 4. Once up, a SIGHUP reloads the keys (the ones during the boot were not lost either).
        stdout = '';
        hup();
        await until('the reload log line', proc, () => stdout.includes('API keys reloaded (SIGHUP)'), err);
        expect((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
        expect(proc.exitCode).toBeNull();
        expect(proc.signalCode).toBeNull();
      } finally {
        if (proc.exitCode === null && proc.signalCode === null) {
          proc.kill('SIGKILL');
          await exited;
        }
        if (existsSync(dir)) await rm(dir, { recursive: true, force: true });
      }
    },
    BOUND_MS + 30_000,
  );
});
