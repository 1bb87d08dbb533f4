import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, toolsDir } from './paths.js';
import { RegistryError, scanTools } from './registry.js';

// Tool packages (docs/tool-packages.md): small packages written into a temporary folder's
// node_modules, loaded as TOOL_PACKAGES with TOOL_PACKAGES_DIR pointing there. No npm.

const root = mkdtempSync(join(tmpdir(), 'toolhub-packages-'));
const NO_TOOLS = join(root, 'no-tools');
mkdirSync(NO_TOOLS);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A valid definition (plain JS, as a package writes it) of the tool `id`. */
function toolJs(id: string, extra = ''): string {
  return `export default {
  id: ${JSON.stringify(id)}, title: 'Fixture ${id}', description: 'A test package tool',
  input: { type: 'object', properties: { text: { type: 'string', description: 'text' } }, required: ['text'], additionalProperties: false },
  output: { type: 'object' },
  policy: { limit: 10, burst: 0, inputMaxBytes: 1024, timeoutMs: 300 },
  endpoints: [{ path: '/api/${id}/', methods: ['POST'], summary: 'Run it' }],
  deterministic: true, ${extra}
};
`;
}

const MANIFEST = { manifest: 1, entry: './tools', tools: ['pk-one'], hub: '>=1.0.0 <2' };

let count = 0;
/** Writes node_modules/<name> of a fresh folder; returns that folder (the TOOL_PACKAGES_DIR). */
function writePackage(
  name: string,
  pkg: Record<string, unknown>,
  tools: Record<string, string> = { 'pk-one': toolJs('pk-one') },
  dir = join(root, `app-${++count}`),
): string {
  const folder = join(dir, 'node_modules', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', type: 'module', ...pkg }),
  );
  for (const [id, js] of Object.entries(tools)) {
    mkdirSync(join(folder, 'tools', id), { recursive: true });
    writeFileSync(join(folder, 'tools', id, 'tool.js'), js);
    writeFileSync(join(folder, 'tools', id, 'run.js'), 'export default (input) => ({ echo: input.text });\n');
  }
  return dir;
}

/** The error scanning `packages` from `dir` stops with (no built-in tools: they are not the point). */
async function failure(dir: string, packages = ['pk']): Promise<RegistryError> {
  const error = await scanTools({ toolsDir: NO_TOOLS, packages, packagesDir: dir }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryError);
  const message = (error as RegistryError).message;
  // One line: src/server.ts prints it as the boot's last word.
  expect(message).not.toContain('\n');
  return error as RegistryError;
}

describe('a tool package loads from TOOL_PACKAGES_DIR', () => {
  it('registers its tools with where they came from and what they need', async () => {
    const dir = writePackage('pk', { toolhub: { ...MANIFEST, needs: { network: true, memoryMb: 64 } } });
    const tools = await scanTools({ toolsDir: NO_TOOLS, packages: ['pk'], packagesDir: dir });
    expect([...tools.keys()]).toEqual(['pk-one']);
    const tool = tools.get('pk-one')!;
    expect(tool.origin).toBe("package 'pk'");
    expect(tool.needs).toEqual({ network: true, memoryMb: 64 });
    expect(tool.runPath).toBe(join(dir, 'node_modules', 'pk', 'tools', 'pk-one', 'run.js'));
    // Its documents stay beside its modules (SKILL.md, examples/).
    expect(tool.docsDir).toBe(join(dir, 'node_modules', 'pk', 'tools', 'pk-one'));
  });

  it('loads only the ids it lists; needs default to no network', async () => {
    const dir = writePackage(
      '@scope/pk',
      { toolhub: MANIFEST },
      {
        'pk-one': toolJs('pk-one'),
        'pk-two': toolJs('pk-two'),
      },
    );
    const tools = await scanTools({ toolsDir: NO_TOOLS, packages: ['@scope/pk'], packagesDir: dir });
    expect([...tools.keys()]).toEqual(['pk-one']);
    expect(tools.get('pk-one')!.needs).toEqual({ network: false });
  });

  it('the built-in tools load through the hub package.json toolhub block, every folder of tools/ listed', async () => {
    const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).toolhub;
    const folders = readdirSync(toolsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !/^[_.]/.test(e.name))
      .map((e) => e.name)
      .sort();
    // A tool folder the block does not list would never load (npm run new-tool adds it).
    expect(manifest.tools).toEqual(folders);
    const tools = await scanTools();
    expect([...tools.keys()].sort()).toEqual(folders);
    for (const tool of tools.values()) {
      expect(tool.origin).toBe("the hub's built-in tools");
      expect(tool.docsDir).toBe(join(projectRoot, 'tools', tool.def.id));
    }
  });
});

describe('a bad tool package stops the boot with one line naming the package and the field', () => {
  it('a package that cannot be resolved', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir, { recursive: true });
    expect((await failure(dir, ['toolhub-nowhere'])).message).toBe(
      `tool package 'toolhub-nowhere': not found from ${dir} (TOOL_PACKAGES_DIR)`,
    );
  });

  it('a name that is not an npm package name (never a path)', async () => {
    for (const name of ['../outside', '/etc', 'Upper', '@scope/'])
      expect((await failure(root, [name])).message).toBe(
        `tool package '${name}': not an npm package name (TOOL_PACKAGES)`,
      );
  });

  it('a package without a toolhub block', async () => {
    expect((await failure(writePackage('pk', {}))).message).toBe(
      "tool package 'pk': package.json has no toolhub block",
    );
  });

  const malformed: [string, unknown, string][] = [
    [
      'a tool id that is not a string',
      { ...MANIFEST, tools: ['pk-one', 7] },
      'toolhub.tools[1]: must be string',
    ],
    ['no hub range', { manifest: 1, entry: './tools', tools: ['pk-one'] }, 'toolhub.hub: is required'],
    ['no tools', { ...MANIFEST, tools: [] }, 'toolhub.tools: must NOT have fewer than 1 items'],
    ['another manifest format', { ...MANIFEST, manifest: 2 }, 'toolhub.manifest: must be 1'],
    ['an entry outside ./', { ...MANIFEST, entry: '/abs' }, 'toolhub.entry: must match pattern "^\\./"'],
    [
      'a field it does not know',
      { ...MANIFEST, sandbox: true },
      'toolhub.sandbox: is not a field of the manifest',
    ],
    [
      'memoryMb not an integer',
      { ...MANIFEST, needs: { memoryMb: '64' } },
      'toolhub.needs.memoryMb: must be integer',
    ],
    [
      'network not a boolean',
      { ...MANIFEST, needs: { network: 'no' } },
      'toolhub.needs.network: must be boolean',
    ],
    ['a block that is not an object', ['pk-one'], 'toolhub: must be object'],
  ];
  for (const [what, toolhub, line] of malformed) {
    it(`a malformed block: ${what}`, async () => {
      expect((await failure(writePackage('pk', { toolhub }))).message).toBe(`tool package 'pk': ${line}`);
    });
  }

  it('a hub range the hub does not fit, or no range at all', async () => {
    expect((await failure(writePackage('pk', { toolhub: { ...MANIFEST, hub: '>=2' } }))).message).toBe(
      `tool package 'pk': toolhub.hub: ">=2" does not include hub 1.0.0`,
    );
    expect((await failure(writePackage('pk', { toolhub: { ...MANIFEST, hub: 'soon' } }))).message).toBe(
      `tool package 'pk': toolhub.hub: "soon" is not a semver range`,
    );
  });

  it('an id listed but missing in entry', async () => {
    const dir = writePackage('pk', { toolhub: { ...MANIFEST, tools: ['pk-one', 'pk-gone'] } });
    expect((await failure(dir)).message).toMatch(
      /^tool package 'pk': toolhub\.tools\[1\]: 'pk-gone' has no folder .*pk-gone in toolhub\.entry$/,
    );
  });

  it('an id whose folder defines another id', async () => {
    const dir = writePackage('pk', { toolhub: MANIFEST }, { 'pk-one': toolJs('pk-other') });
    expect((await failure(dir)).message).toBe(
      "tool package 'pk': toolhub.tools[0]: folder 'pk-one' defines id 'pk-other'",
    );
  });

  it('a folder without run.js, a definition that is not one, a schema that is not a JSON Schema', async () => {
    const noRun = writePackage('pk', { toolhub: MANIFEST });
    rmSync(join(noRun, 'node_modules', 'pk', 'tools', 'pk-one', 'run.js'));
    expect((await failure(noRun)).message).toMatch(
      /^tool package 'pk': toolhub\.tools\[0\]: .*pk-one needs tool\.js and run\.js$/,
    );
    const invalid = writePackage(
      'pk',
      { toolhub: MANIFEST },
      { 'pk-one': toolJs('pk-one', 'policy: { riskClass: "X" },') },
    );
    expect((await failure(invalid)).message).toMatch(
      /^tool package 'pk': toolhub\.tools\[0\]: tool pk-one: invalid definition: \/policy\/riskClass/,
    );
    const badSchema = writePackage(
      'pk',
      { toolhub: MANIFEST },
      {
        'pk-one': toolJs('pk-one').replace(
          "properties: { text: { type: 'string', description: 'text' } }",
          "properties: { text: { type: 'strng', description: 'text' } }",
        ),
      },
    );
    expect((await failure(badSchema)).message).toMatch(
      /^tool package 'pk': toolhub\.tools\[0\]: tool pk-one: its input schema is not a JSON Schema/,
    );
    const throws = writePackage('pk', { toolhub: MANIFEST }, { 'pk-one': 'throw new Error("no\\nway");\n' });
    expect((await failure(throws)).message).toMatch(
      /^tool package 'pk': toolhub\.tools\[0\]: .*tool\.js cannot be loaded: no$/,
    );
  });

  it('a package.json that is not JSON', async () => {
    const dir = writePackage('pk', { toolhub: MANIFEST });
    writeFileSync(join(dir, 'node_modules', 'pk', 'package.json'), '{"name": "pk",');
    expect((await failure(dir)).message).toMatch(/^tool package 'pk': package\.json cannot be read: /);
  });

  it('a tool id another package, or the hub, already defines', async () => {
    const dir = writePackage('pk-a', { toolhub: MANIFEST });
    writePackage('pk-b', { toolhub: MANIFEST }, undefined, dir);
    expect((await failure(dir, ['pk-a', 'pk-b'])).message).toBe(
      "tool id 'pk-one' of package 'pk-b' is already defined by package 'pk-a'",
    );
    const builtIn = writePackage(
      'pk',
      { toolhub: { ...MANIFEST, tools: ['html-markdown'] } },
      {
        'html-markdown': toolJs('html-markdown'),
      },
    );
    const error = await scanTools({ packages: ['pk'], packagesDir: builtIn }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(RegistryError);
    expect(error?.message).toBe(
      "tool id 'html-markdown' of package 'pk' is already defined by the hub's built-in tools",
    );
  });
});

describe('a definition the slimmed shape refuses, one line each', () => {
  it('page content that is not one, a field without its description, a mode field in the input', async () => {
    const page = writePackage('pk', { toolhub: MANIFEST });
    writeFileSync(
      join(page, 'node_modules', 'pk', 'tools', 'pk-one', 'page.js'),
      'export default { faqs: "none" };\n',
    );
    expect((await failure(page)).message).toMatch(
      /^tool package 'pk': toolhub\.tools\[0\]: tool pk-one: invalid page content: \/faqs must be array$/,
    );
    const undescribed = writePackage(
      'pk',
      { toolhub: MANIFEST },
      { 'pk-one': toolJs('pk-one').replace("{ type: 'string', description: 'text' }", "{ type: 'string' }") },
    );
    expect((await failure(undescribed)).message).toBe(
      "tool pk-one of package 'pk': input field 'text' has no description",
    );
    const modeInInput = writePackage(
      'pk',
      { toolhub: MANIFEST },
      {
        'pk-one': toolJs('pk-one').replace(
          "properties: { text: { type: 'string', description: 'text' } }",
          "properties: { text: { type: 'string', description: 'text' }, mode: { enum: ['x'], description: 'm' } }",
        ),
      },
    );
    expect((await failure(modeInInput)).message).toBe(
      "tool pk-one of package 'pk': the mode field 'mode' is declared in modes, not in the input schema",
    );
    const pathless = writePackage(
      'pk',
      { toolhub: MANIFEST },
      {
        'pk-one': toolJs('pk-one', "modes: { field: null, each: { a1: { path: 'a1' }, b2: {} } },").replace(
          /endpoints: .*\n/,
          '',
        ),
      },
    );
    expect((await failure(pathless)).message).toMatch(/mode 'b2' has no mode field and no path of its own/);
  });
});
