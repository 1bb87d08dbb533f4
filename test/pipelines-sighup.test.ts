/**
 * Named pipelines reloaded by SIGHUP in a real hub process (docs/api.md, "Pipelines"): a new
 * file's pipelines are served on their routes, the runtime, MCP and the catalogue, the old ones
 * are gone; a file that does not check keeps the set as it was, with one log line; at boot, such
 * a file stops the hub with one line naming it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverJs, startInstance, stopInstance } from './server-process.js';

const pipelineFile = (id: string, toolId = 'token-counter') =>
  JSON.stringify({
    pipelines: [
      {
        id,
        name: `Pipeline ${id}`,
        description: 'Counts the tokens of a text (a test pipeline)',
        steps: [{ toolId, input: { text: { $from: '/input/text' } } }],
      },
    ],
  });

describe('named pipelines on SIGHUP', () => {
  it('serves the new file on every door, and keeps the old set when the file does not check', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolhub-pipelines-'));
    const file = join(dir, 'pipelines.json');
    await writeFile(file, pipelineFile('p-one'));
    const hub = await startInstance({ PIPELINES_FILE: file, LOG_LEVEL: 'info' });
    try {
      const call = async (id: string) =>
        (
          await fetch(`${hub.base}/api/pipelines/${id}/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ text: 'hello there' }),
          })
        ).status;
      const mcpTools = async () => {
        const res = await fetch(`${hub.base}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        const text = await res.text();
        const json = JSON.parse(text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? '{}'));
        return (json.result.tools as { name: string }[]).map((t) => t.name);
      };
      expect(await call('p-one')).toBe(200);
      expect(await mcpTools()).toContain('p-one');

      await writeFile(file, pipelineFile('p-two'));
      hub.proc.kill('SIGHUP');
      await expect.poll(() => call('p-two'), { timeout: 20_000 }).toBe(200);
      expect(await call('p-one')).toBe(404);
      const runtime = await fetch(`${hub.base}/api/tools/run/?toolId=p-two&a=hi`);
      expect(runtime.status).toBe(200);
      const names = await mcpTools();
      expect(names).toContain('p-two');
      expect(names).not.toContain('p-one');
      const index = (await (await fetch(`${hub.base}/api/skills-index.json`)).json()) as {
        tools: { toolId: string }[];
      };
      expect(index.tools.map((t) => t.toolId)).toContain('p-two');
      expect((await fetch(`${hub.base}/tools/p-two/`, { headers: { accept: 'text/html' } })).status).toBe(
        200,
      );

      // A step naming a tool that does not exist: the file is refused, the set stays.
      await writeFile(file, pipelineFile('p-three', 'no-such-tool'));
      hub.proc.kill('SIGHUP');
      await expect.poll(() => hub.stdout(), { timeout: 20_000 }).toContain('pipelines not reloaded');
      const line = hub
        .stdout()
        .split('\n')
        .find((l) => l.includes('pipelines not reloaded'))!;
      expect(JSON.parse(line).reason).toMatch(
        /pipelines\[0\] \(p-three\): step 0: unknown toolId "no-such-tool"/,
      );
      expect(await call('p-two')).toBe(200);
      expect(await call('p-three')).toBe(404);
    } finally {
      await stopInstance(hub);
    }
  }, 90_000);

  it('stops the boot with one line naming the file when it does not check', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolhub-pipelines-'));
    const file = join(dir, 'pipelines.json');
    await writeFile(file, pipelineFile('token-counter'));
    const proc = spawn(process.execPath, [serverJs], {
      env: { ...process.env, PIPELINES_FILE: file, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d) => {
      stderr += String(d);
    });
    // A hub that booted anyway is stopped by its PID, never left behind.
    const stop = setTimeout(() => proc.kill('SIGKILL'), 50_000);
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    clearTimeout(stop);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `tool-hub: PIPELINES_FILE ${file}: pipelines[0] (token-counter): the id is a tool's`,
    );
  }, 60_000);
});
