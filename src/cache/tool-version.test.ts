import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolKitDir, toolsDir } from '../paths.js';
import { toolVersion } from './tool-version.js';

/**
 * A tool's version (docs/api.md, "Result cache and ETags"): a hash of its code, of the
 * folders it shares, and of the installed version of every package that code imports.
 * Each test builds a fake project in a temporary folder:
 *
 *   root/node_modules/{pkg,pkg2,@scope/pkg,unused,…}/package.json
 *   root/tools/my-tool/{tool.ts,run.ts,lib/helper.ts,data.json,run.test.ts,SKILL.md,examples/}
 *   root/tools/_shared/util.ts
 *   root/kit/index.ts
 */
let root: string;
let tool: string;
let shared: string;
let kit: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function install(name: string, version: string): void {
  write(join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
}

const version = () => toolVersion(tool, [shared, kit]);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'toolhub-tool-version-'));
  tool = join(root, 'tools', 'my-tool');
  shared = join(root, 'tools', '_shared');
  kit = join(root, 'kit');
  install('pkg', '1.0.0');
  install('pkg2', '2.0.0');
  install('@scope/pkg', '3.0.0');
  install('shared-dep', '4.0.0');
  install('test-only', '5.0.0');
  install('unused', '6.0.0');
  write(
    join(tool, 'tool.ts'),
    [
      "import { defineTool } from '#tool-kit';",
      "import { readFileSync } from 'node:fs';",
      "import { EventEmitter } from 'events';",
      "import { helper } from './lib/helper.js';",
      "import { util } from '../_shared/util.js';",
      "import def from 'pkg';",
      "export { sub } from '@scope/pkg/sub';",
      'export default defineTool({ id: "my-tool" });',
    ].join('\n'),
  );
  write(
    join(tool, 'run.ts'),
    "export default async function run() { const m = await import('pkg2'); return m; }\n",
  );
  write(join(tool, 'lib', 'helper.ts'), 'export const helper = 1;\n');
  write(join(tool, 'data.json'), '{"table":[1,2,3]}\n');
  write(
    join(tool, 'run.test.ts'),
    "import { it } from 'vitest';\nimport t from 'test-only';\nit('x', () => {});\n",
  );
  write(join(tool, 'SKILL.md'), '# my-tool\n');
  write(join(tool, 'examples', 'basic.json'), '{"input":{}}\n');
  write(join(tool, 'examples', 'gen.ts'), "import x from 'unused';\n");
  write(join(shared, 'util.ts'), "import dep from 'shared-dep';\nexport const util = 2;\n");
  write(join(kit, 'index.ts'), 'export const defineTool = (d: unknown) => d;\n');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('toolVersion', () => {
  it('is a 16-character base64url string, the same for the same files', () => {
    const v = version();
    expect(v).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(version()).toBe(v);
    // Rewriting a file with the same text changes nothing.
    write(
      join(tool, 'run.ts'),
      "export default async function run() { const m = await import('pkg2'); return m; }\n",
    );
    expect(version()).toBe(v);
  });

  it('is the same for an identical copy of the project elsewhere', () => {
    const v = version();
    const copy = mkdtempSync(join(tmpdir(), 'toolhub-tool-version-copy-'));
    try {
      const copyFiles = (from: string, to: string) => {
        for (const e of readdirSync(from, { withFileTypes: true })) {
          if (e.isDirectory()) copyFiles(join(from, e.name), join(to, e.name));
          else write(join(to, e.name), readFileSync(join(from, e.name), 'utf8'));
        }
      };
      copyFiles(root, copy);
      expect(
        toolVersion(join(copy, 'tools', 'my-tool'), [join(copy, 'tools', '_shared'), join(copy, 'kit')]),
      ).toBe(v);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('changes when a module file of the tool changes, is added or is removed', () => {
    const v = version();
    write(
      join(tool, 'run.ts'),
      "export default async function run() { const m = await import('pkg2'); return 1; }\n",
    );
    const edited = version();
    expect(edited).not.toBe(v);
    write(join(tool, 'lib', 'helper.ts'), 'export const helper = 2;\n');
    const nested = version();
    expect(nested).not.toBe(edited);
    write(join(tool, 'data.json'), '{"table":[1,2,4]}\n');
    const data = version();
    expect(data).not.toBe(nested);
    write(join(tool, 'lib', 'more.mjs'), 'export const more = 1;\n');
    const added = version();
    expect(added).not.toBe(data);
    rmSync(join(tool, 'lib', 'more.mjs'));
    expect(version()).toBe(data);
  });

  it('changes when a file is renamed, even with the same text', () => {
    const v = version();
    rmSync(join(tool, 'lib', 'helper.ts'));
    write(join(tool, 'lib', 'helper2.ts'), 'export const helper = 1;\n');
    expect(version()).not.toBe(v);
  });

  it('does not change for tests, examples, documents or dot folders', () => {
    const v = version();
    write(join(tool, 'run.test.ts'), "import { it } from 'vitest';\nit('y', () => {});\n");
    write(join(tool, 'lib', 'helper.test.mjs'), 'export {};\n');
    write(join(tool, 'examples', 'basic.json'), '{"input":{"a":1}}\n');
    write(join(tool, 'examples', 'new.json'), '{}\n');
    write(join(tool, 'examples', 'deep', 'x.ts'), 'export const x = 1;\n');
    write(join(tool, 'SKILL.md'), '# my-tool, reworded\n');
    write(join(tool, 'NOTES.txt'), 'notes\n');
    write(join(tool, '.cache', 'x.json'), '{}\n');
    write(join(tool, 'node_modules', 'local', 'index.js'), 'module.exports = 1;\n');
    write(join(shared, 'util.test.ts'), 'export {};\n');
    expect(version()).toBe(v);
  });

  it('changes when a file in a shared folder changes', () => {
    const v = version();
    write(join(shared, 'util.ts'), "import dep from 'shared-dep';\nexport const util = 3;\n");
    const sharedEdit = version();
    expect(sharedEdit).not.toBe(v);
    write(join(kit, 'index.ts'), 'export const defineTool = (d: unknown) => ({ ...(d as object) });\n');
    const kitEdit = version();
    expect(kitEdit).not.toBe(sharedEdit);
    write(join(kit, 'extra.ts'), 'export const extra = 1;\n');
    expect(version()).not.toBe(kitEdit);
  });

  it('changes when the installed version of an imported package changes', () => {
    let v = version();
    // `from 'pkg'`, `import('pkg2')`, `from '@scope/pkg/sub'`, and one imported by a shared folder only.
    for (const name of ['pkg', 'pkg2', '@scope/pkg', 'shared-dep']) {
      install(name, '9.9.9');
      const bumped = version();
      expect(bumped, name).not.toBe(v);
      v = bumped;
    }
  });

  it('does not change when a package the code does not import changes version', () => {
    const v = version();
    install('unused', '6.0.1'); // imported by examples/ only
    install('test-only', '5.0.1'); // imported by a test only
    install('@scope/other', '1.0.0');
    install('@scope/pkg-sub', '1.0.0');
    install('sub', '1.0.0'); // the subpath of `@scope/pkg/sub` is not a package
    expect(version()).toBe(v);
  });

  it('ignores node: builtins, bare builtins, relative and #subpath imports', () => {
    const v = version();
    // Were these taken for packages, these manifests would be read.
    install('node:fs', '1.0.0');
    install('events', '1.0.0');
    install('#tool-kit', '1.0.0');
    write(join(root, 'node_modules', 'package.json'), JSON.stringify({ version: '1.0.0' })); // `./…` → `.`
    expect(version()).toBe(v);
    install('node:fs', '2.0.0');
    install('events', '2.0.0');
    install('#tool-kit', '2.0.0');
    write(join(root, 'node_modules', 'package.json'), JSON.stringify({ version: '2.0.0' }));
    expect(version()).toBe(v);
  });

  it('counts a package that is imported but not installed, stably', () => {
    write(join(tool, 'lib', 'helper.ts'), "import x from 'not-installed';\nexport const helper = 1;\n");
    const v = version();
    expect(v).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(version()).toBe(v);
    install('not-installed', '1.0.0');
    expect(version()).not.toBe(v);
  });

  it('takes a missing shared folder as an empty one', () => {
    const withoutShared = toolVersion(tool, []);
    const missing = join(root, 'no-such-folder');
    expect(toolVersion(tool, [missing])).toBe(withoutShared);
    expect(toolVersion(tool, [missing, join(root, 'another-missing')])).toBe(withoutShared);
    expect(toolVersion(tool, [shared, missing, kit])).toBe(version());
    // The shared folders do count when they are there.
    expect(toolVersion(tool, [shared])).not.toBe(withoutShared);
  });

  it('differs between two tools with different code in one project', () => {
    const other = join(root, 'tools', 'other-tool');
    write(join(other, 'tool.ts'), 'export default { id: "other-tool" };\n');
    expect(toolVersion(other, [shared, kit])).not.toBe(version());
  });
});

describe('toolVersion on the real tools', () => {
  it('gives every tool a distinct 16-character version, stable across calls', () => {
    const ids = readdirSync(toolsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
      .map((e) => e.name);
    expect(ids.length).toBeGreaterThan(1);
    const sharedFolders = [join(toolsDir, '_shared'), toolKitDir];
    const first = ids.map((id) => toolVersion(join(toolsDir, id), sharedFolders));
    const second = ids.map((id) => toolVersion(join(toolsDir, id), sharedFolders));
    for (const v of first) expect(v).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(ids.length);
  });
});
