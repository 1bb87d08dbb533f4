/**
 * The files of a tool package (`npm run new-tool -- <id> --package <dir>`) around its tool
 * folder: package.json with its `toolhub` block (docs/tool-packages.md), a README, and a
 * test that Node runs by itself (`npm test`: node:test, no dependency to install).
 */

/** `toolhub.hub` of a new package: this hub's version up to its next major. */
export function hubRange(version: string): string {
  const major = Number(version.split('.')[0]);
  return `>=${version} <${major + 1}`;
}

export function packageJson(id: string, title: string, hubVersion: string): string {
  const pkg = {
    name: `toolhub-tool-${id}`,
    version: '0.1.0',
    description: `A Tool Hub tool package: ${title}`,
    type: 'module',
    license: 'MIT',
    keywords: ['toolhub', 'toolhub-tool', id],
    engines: { node: '>=20.19.0' },
    files: ['tools/'],
    scripts: { test: 'node --test test/run.test.js' },
    toolhub: {
      manifest: 1,
      entry: './tools',
      tools: [id],
      hub: hubRange(hubVersion),
      needs: { network: false, memoryMb: 64 },
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function runTestJs(id: string): string {
  return `// The tool's own test, run by \`npm test\` with Node's test runner (no dependency to install).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import run from '../tools/${id}/run.js';
import tool, { MAX_TEXT_CHARS, TOP_WORDS } from '../tools/${id}/tool.js';

const example = (name) =>
  JSON.parse(readFileSync(new URL(\`../tools/${id}/examples/\${name}.json\`, import.meta.url), 'utf8'));

test('the basic example answers its expected output', () => {
  const { input } = example('basic');
  // The generic slot a carries the text (the definition's first required field).
  assert.deepEqual(run({ text: input.a }, input.mode), example('expectedOutput'));
});

test('counts code points, words and lines', () => {
  assert.deepEqual(run({ text: 'Hello, wörld!\\nIt’s a well-known 2nd line 👋' }, 'count'), {
    mode: 'count',
    characters: 42,
    words: 7,
    lines: 2,
  });
});

test('runs every mode the definition declares, within its bounds on the largest text', () => {
  const text = Array.from({ length: MAX_TEXT_CHARS / 8 }, (_, i) => \`w\${i % 50} \`).join('');
  for (const mode of Object.keys(tool.modes.each)) assert.equal(run({ text }, mode).words, MAX_TEXT_CHARS / 8);
  assert.equal(run({ text }, 'unique').top.length, TOP_WORDS);
});
`;
}

export function readmeMd(id: string, title: string): string {
  return `# toolhub-tool-${id}

${title}: a Tool Hub tool package. Once installed beside the hub, the tool
\`${id}\` is served on every door: \`POST /api/${id}/\`, the generic runtime, batch requests, MCP,
its page at \`/tools/${id}/\`, the skills index and the OpenAPI document.

## Install into a hub

\`\`\`sh
npm install toolhub-tool-${id}          # in the folder named by TOOL_PACKAGES_DIR (default: the hub's)
TOOL_PACKAGES=toolhub-tool-${id} npm start
\`\`\`

## Develop

\`\`\`sh
npm test        # the tool's own test (node:test)
npm pack        # the tarball to publish or install
\`\`\`

- \`tools/${id}/tool.js\`: the definition (id, title, description, input and output schemas, policy, modes).
- \`tools/${id}/run.js\`: \`run(input, mode)\`, given input the hub has checked against the schema.
- \`tools/${id}/page.js\`: the page content (optional).
- \`tools/${id}/examples/\`: the examples the hub's documents and tests read; \`SKILL.md\`: the agent guide.

A run refuses bad input by throwing an \`Error\` whose \`name\` is \`ToolInputError\` and whose
\`code\` is \`INVALID_INPUT\` or \`UNSUPPORTED_OPTION\`: the client gets that code (400), anything
else is an INTERNAL_ERROR.
`;
}
