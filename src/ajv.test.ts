import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metaCheck } from './ajv.js';
import { API_KEYS_SCHEMA } from './auth/api-keys.js';
import { ENV_SCHEMA } from './config/env.js';
import { FILE_SCHEMA } from './config/policy.js';
import { RegistryError, scanTools } from './registry.js';
import { RUNTIME_SCHEMAS } from './run/runtime-input.js';
import { TOOL_SPEC_SCHEMA } from './shared/tool-def-schema.js';

/**
 * The hub compiles its own schemas without Ajv's meta-schema check (src/ajv.ts: it costs the
 * boot 50-200 ms); this suite makes the check instead, for every schema the code ships.
 */
describe('the hub’s own schemas are JSON Schemas', () => {
  it('environment, policy file, keys file, tool definition and runtime bodies', () => {
    const schemas = { ENV_SCHEMA, FILE_SCHEMA, API_KEYS_SCHEMA, TOOL_SPEC_SCHEMA, ...RUNTIME_SCHEMAS };
    for (const [name, schema] of Object.entries(schemas)) expect(metaCheck(schema), name).toBeNull();
  });

  it('every built-in tool’s input and output schema', async () => {
    const tools = await scanTools();
    expect(tools.size).toBeGreaterThanOrEqual(12);
    for (const { def } of tools.values()) {
      expect(metaCheck(def.input), `${def.id} input`).toBeNull();
      expect(metaCheck(def.output), `${def.id} output`).toBeNull();
    }
  });

  it('names what is wrong with a schema that is not one', () => {
    expect(metaCheck({ type: 'object', properties: { a: { type: 'strin' } } })).toMatch(
      /properties\/a\/type/,
    );
    expect(metaCheck({ type: 'object', required: 'a' })).toMatch(/required/);
  });
});

describe('a plug-in tool (EXTRA_TOOL_DIRS) still gets the check at boot', () => {
  it('refuses one whose input schema is not a JSON Schema, naming the tool and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolhub-plugin-'));
    const folder = join(dir, 'fx-echo');
    await mkdir(folder);
    const original = resolve('test/fixtures/tools/fx-echo');
    await writeFile(
      join(folder, 'tool.ts'),
      `import def from ${JSON.stringify(join(original, 'tool.ts'))};\n` +
        'export default { ...def, input: { ...def.input, properties: { ...def.input.properties, repeat: { type: "integr" } } } };\n',
    );
    await writeFile(
      join(folder, 'run.ts'),
      `export { default } from ${JSON.stringify(join(original, 'run.ts'))};\n`,
    );
    const scan = scanTools({ toolsDir: resolve('test/fixtures/no-tools'), extraDirs: [dir] });
    await expect(scan).rejects.toThrow(RegistryError);
    await expect(
      scanTools({ toolsDir: resolve('test/fixtures/no-tools'), extraDirs: [dir] }),
    ).rejects.toThrow(/tool fx-echo: its input schema is not a JSON Schema: .*repeat\/type/);
  });
});
