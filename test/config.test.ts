import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadEnv } from '../src/config/env.js';
import { FIXTURE_TOOLS, NO_TOOLS, policyFile } from './helpers.js';

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
