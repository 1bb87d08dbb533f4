import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadEnv } from '../src/config/env.js';
import { FIXTURE_TOOLS, freePort, NO_TOOLS, policyFile } from './helpers.js';
import { serverJs } from './server-process.js';

const boot = (env: Record<string, string>) =>
  buildApp({
    logger: false,
    toolsDir: NO_TOOLS,
    env: { EXTRA_TOOL_DIRS: FIXTURE_TOOLS, POOL_THREADS: '1', ...env },
  });

describe('configuration checked at boot', () => {
  it('applies defaults and coerces types', () => {
    const env = loadEnv({ PORT: '9000', RUNTIME_ENABLED: 'false' });
    expect(env).toMatchObject({
      PORT: 9000,
      HOST: '0.0.0.0',
      RUNTIME_ENABLED: false,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'false',
    });
    expect(env.REDIS_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT="eighty" must be integer/],
    [{ PORT: '70000' }, /PORT="70000" must be <= 65535/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL="loud" must be equal to one of the allowed values/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL="localhost:6379" must match pattern/],
    [{ POOL_THREADS: '0' }, /POOL_THREADS="0" must be >= 1/],
    [{ RUNTIME_ENABLED: 'maybe' }, /RUNTIME_ENABLED="maybe" must be boolean/],
  ])('stops the boot on %j naming the variable', async (env, message) => {
    await expect(boot(env)).rejects.toThrow(message);
  });

  it('stops the boot on an unknown toolId in DISABLED_TOOLS', async () => {
    await expect(boot({ DISABLED_TOOLS: 'fx-echo,no-such-tool' })).rejects.toThrow(
      /unknown toolId 'no-such-tool'/,
    );
  });

  it.each([
    [{ tools: { 'no-such-tool': { limit: 1 } } }, /unknown toolId 'no-such-tool'/],
    [{ tools: { 'fx-echo': { limt: 1 } } }, /\/tools\/fx-echo must NOT have additional properties 'limt'/],
    [{ tools: { 'fx-echo': { timeoutMs: 'soon' } } }, /\/tools\/fx-echo\/timeoutMs must be integer/],
    [{ runtimeEnabled: 'yes' }, /\/runtimeEnabled must be boolean/],
    [{ colour: 'red' }, /must NOT have additional properties 'colour'/],
  ])('stops the boot on a bad policy file %j naming the field', async (content, message) => {
    await expect(boot({ POLICY_FILE: await policyFile(content) })).rejects.toThrow(message);
  });

  it('reads YAML policy files and stops on unparseable ones', async () => {
    const yamlPath = join(tmpdir(), `policy-${process.pid}.yaml`);
    await writeFile(yamlPath, 'tools:\n  fx-echo:\n    limit: 7\n');
    const app = await boot({ POLICY_FILE: yamlPath });
    try {
      expect(app.policies.get('fx-echo')).toMatchObject({ limit: 7, burst: 0, networkEnabled: false });
    } finally {
      await app.close();
    }
    const badPath = join(tmpdir(), `policy-${process.pid}.json`);
    await writeFile(badPath, '{ nope');
    await expect(boot({ POLICY_FILE: badPath })).rejects.toThrow(/POLICY_FILE .*policy-\d+\.json/);
    await expect(boot({ POLICY_FILE: '/does/not/exist.json' })).rejects.toThrow(/ENOENT/);
  });
});

/** Policy files that cannot be read, each stopping the boot with one bounded line. */
const BAD_POLICY_FILES = [
  [
    'a YAML syntax error',
    'policy.yaml',
    'tools:\n  fx-echo:\n    limit: [7\n',
    /: Flow sequence in block collection must be .* at line 4, column 1$/,
  ],
  [
    'a duplicate YAML key',
    'policy.yml',
    'tools:\n  fx-echo:\n    limit: 7\n    limit: 8\n',
    /: Map keys must be unique at line 4, column 5$/,
  ],
  ['deep YAML nesting', 'policy.yaml', `tools: ${'['.repeat(100_000)}`, /: nested deeper than 32 levels$/],
  ['deep YAML block nesting', 'policy.yaml', deepBlocks(3000), /: nested deeper than 32 levels$/],
  ['deep JSON nesting', 'policy.json', '['.repeat(100_000), /: nested deeper than 32 levels$/],
  [
    'a JSON syntax error across lines',
    'policy.json',
    '{\n "tools": x\n}',
    /: Unexpected token .*\\n.* JSON$/,
  ],
  ['a key with a line break', 'policy.json', '{"tools":{"fx-echo":{"a\\nb":1}}}', /properties 'a\\nb'$/],
] as const;

/** YAML maps nested by indentation only, `levels` deep. */
function deepBlocks(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
}

async function badPolicy(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolhub-policy-'));
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('a policy file that cannot be read stops the boot with one bounded line', () => {
  it.each(BAD_POLICY_FILES)('%s', async (_what, name, content, message) => {
    const err = await boot({ POLICY_FILE: await badPolicy(name, content) }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(message);
    expect(err?.message).not.toMatch(/[\n\r]/);
    expect(err?.message.length).toBeLessThanOrEqual(500);
  });

  it('prints it as one line from the real process', async () => {
    for (const [, name, content, message] of BAD_POLICY_FILES.slice(0, 3)) {
      const { status, stderr } = await runServer({ POLICY_FILE: await badPolicy(name, content) });
      expect(status).toBe(1);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr.trim()).toMatch(new RegExp(`^tool-hub: POLICY_FILE .*${message.source.slice(2)}`));
    }
  });
});

describe('a bad environment stops the real process with one line', () => {
  it.each([
    [{ TRUST_PROXY: 'maybe' }, /^tool-hub: TRUST_PROXY="maybe"/],
    [{ HOST: '999.1.1.1' }, /^tool-hub: HOST="999.1.1.1" is not an IP address/],
    [
      { HOST: 'no-such-host.invalid' },
      /^tool-hub: cannot listen on HOST=no-such-host.invalid PORT=\d+: ENOTFOUND/,
    ],
    [{ POOL_THREADS: 'many' }, /^tool-hub: invalid environment: POOL_THREADS="many"/],
  ])('%j', async (env, message) => {
    const { status, stderr } = await runServer(env);
    expect(status).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });
});

describe('boot warnings', () => {
  it('warns when POOL_THREADS is far above the cores', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
      toolsDir: NO_TOOLS,
      env: { EXTRA_TOOL_DIRS: FIXTURE_TOOLS, POOL_THREADS: String(2 * availableParallelism() + 1) },
    });
    await app.close();
    expect(lines.join('')).toMatch(/POOL_THREADS=\d+ is far above the \d+ CPU cores/);
  });

  it('warns when REFUSAL_LIMIT, the old name of JUNK_LIMIT, is set, and only then', async () => {
    const warned = async (env: Record<string, string>) => {
      const lines: string[] = [];
      const app = await buildApp({
        logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
        toolsDir: NO_TOOLS,
        env: { EXTRA_TOOL_DIRS: FIXTURE_TOOLS, POOL_THREADS: '1', ...env },
      });
      await app.close();
      return lines.join('');
    };
    expect(await warned({ REFUSAL_LIMIT: '7' })).toMatch(
      /REFUSAL_LIMIT is deprecated: set JUNK_LIMIT instead/,
    );
    expect(await warned({ JUNK_LIMIT: '7' })).not.toMatch(/deprecated/);
  });
});

describe('REFUSAL_LIMIT, the deprecated name of JUNK_LIMIT', () => {
  it('is read while JUNK_LIMIT is unset, and JUNK_LIMIT wins when both are set', () => {
    expect(loadEnv({}).JUNK_LIMIT).toBe(60);
    expect(loadEnv({ REFUSAL_LIMIT: '5' }).JUNK_LIMIT).toBe(5);
    expect(loadEnv({ JUNK_LIMIT: '9', REFUSAL_LIMIT: '5' }).JUNK_LIMIT).toBe(9);
    expect(loadEnv({ JUNK_LIMIT: '', REFUSAL_LIMIT: '5' }).JUNK_LIMIT).toBe(5);
  });

  it('is checked like JUNK_LIMIT, naming itself', () => {
    expect(() => loadEnv({ REFUSAL_LIMIT: '-1' })).toThrow(/REFUSAL_LIMIT="-1" must be >= 0/);
  });
});

/** Runs the built server with `env` on a free port until it exits (it must, here). */
async function runServer(env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const proc = spawn(process.execPath, [serverJs], {
    env: { ...process.env, PORT: String(await freePort()), LOG_LEVEL: 'warn', POOL_THREADS: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d) => {
    stderr += String(d);
  });
  const status = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  return { status, stderr };
}
