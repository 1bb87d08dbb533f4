/**
 * The code of a new tool (`npm run new-tool -- <id>`): a small text tool that works as it
 * is, so the whole suite passes with it before it becomes the real tool. Written already
 * formatted as biome wants it; the scaffold also runs biome on the folder, since a long id
 * can push a line past the width.
 */

/** How the files are written: TypeScript in the hub's tools/, plain JavaScript in a package. */
export type Flavour = 'ts' | 'js';

/**
 * The definition: the fields a tool's author writes (docs/writing-a-tool.md); the registry
 * derives the rest. test/new-tool.test.ts holds it to eight fields at most.
 */
export function toolTs(id: string, title: string, flavour: Flavour = 'ts'): string {
  const ts = flavour === 'ts';
  const head = ts
    ? `import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['count', 'unique'] as const;`
    : `// The definition of the \`${id}\` tool (docs/writing-a-tool.md in the Tool Hub repository): a
// plain object, which the hub checks against its definition schema when it loads the package.

/** The contract run.js relies on; the input schema below enforces it before a run. */
export const MODES = ['count', 'unique'];`;
  return `${head}
/** The policy's inputMaxBytes; a character is at least one UTF-8 byte. */
export const MAX_TEXT_CHARS = 65536;
/** How many of the most frequent words the unique mode lists. */
export const TOP_WORDS = 10;

export default ${ts ? 'defineTool(' : ''}{
  id: '${id}',
  title: '${title}',
  description:
    'Counts the characters, words and lines of a text, or its distinct words with the most frequent ones.',
  input: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        maxLength: MAX_TEXT_CHARS,
        description:
          'The text to count, any Unicode. A word is a run of letters and digits, with inner apostrophes and hyphens',
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
  // The result of both modes (its JSON Schema: an MCP client reads it as the outputSchema).
  output: {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: [...MODES], description: 'The mode that ran' },
      words: { type: 'integer', minimum: 0, description: 'How many words the text has' },
      characters: { type: 'integer', minimum: 0, description: 'count: Unicode code points' },
      lines: { type: 'integer', minimum: 0, description: 'count: lines (0 for the empty text)' },
      unique: { type: 'integer', minimum: 0, description: 'unique: distinct words, case-insensitive' },
      top: {
        type: 'array',
        maxItems: TOP_WORDS,
        description: 'unique: the most frequent words (lower case), then alphabetically',
        items: {
          type: 'object',
          properties: { word: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
          required: ['word', 'count'],
          additionalProperties: false,
        },
      },
    },
    required: ['mode', 'words'],
    anyOf: [{ required: ['characters', 'lines'] }, { required: ['unique', 'top'] }],
    additionalProperties: false,
  },
  // Where it differs from the defaults (60 runs a minute, burst 20, 64 KiB, 2 s).
  policy: { timeoutMs: 1000 },
  modes: {
    description: 'count (default: characters, words and lines) or unique (distinct words, case-insensitive)',
    each: { count: {}, unique: {} },
  },
  // The result is a function of the mode and input alone: cacheable, with an ETag.
  deterministic: true,
}${ts ? ')' : ''};
`;
}

/** The page content: what the tool's page and the catalogue show (optional). */
export function pageTs(id: string, flavour: Flavour = 'ts'): string {
  const ts = flavour === 'ts';
  return `${ts ? "import { definePage } from '#tool-kit';\n\n" : ''}// The page content of ${id}: what its page at /tools/${id}/ and the catalogue show; every field is optional.
export default ${ts ? 'definePage(' : ''}{
  icon: 'text',
  keywords: ['text', 'word count', 'characters', 'lines'],
  tags: ['text'],
  faqs: [
    {
      question: 'What counts as a word and as a character?',
      answer:
        "A word is a run of letters and digits, joined by inner apostrophes or hyphens (it's, well-known). A character is a Unicode code point, so an emoji counts once.",
    },
  ],
  howTo: [
    {
      title: 'Count a text',
      description: 'Pass the text as \`text\` (generic: \`a\`); set \`mode\` to count (default) or unique.',
    },
  ],
}${ts ? ')' : ''};
`;
}

export function runTs(id: string, flavour: Flavour = 'ts'): string {
  const ts = `/** ${id}: counts the characters, words and lines of a text, or its distinct words. */
import type { ToolInput } from '#tool-kit';
import { type MODES, TOP_WORDS } from './tool.js';

type Mode = (typeof MODES)[number];
type Result = Record<string, unknown>;

/** A word: letters and digits, joined by inner apostrophes or hyphens (it's, well-known). */
const WORD = /[\\p{L}\\p{N}]+(?:['’-][\\p{L}\\p{N}]+)*/gu;

// One entry per mode of tool.ts: a mode added there without its code here does not compile.
const RUNS: Record<Mode, (text: string, words: string[]) => Result> = {
  count: (text, words) => ({
    mode: 'count',
    characters: [...text].length,
    words: words.length,
    lines: text === '' ? 0 : text.split(/\\r\\n|\\r|\\n/).length,
  }),
  unique: (_text, words) => {
    const counts = new Map<string, number>();
    for (const word of words) {
      const key = word.toLowerCase();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const top = [...counts]
      .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
      .slice(0, TOP_WORDS)
      .map(([word, count]) => ({ word, count }));
    return { mode: 'unique', words: words.length, unique: counts.size, top };
  },
};

/** Input as the schema in tool.ts passed it: \`text\` is a string of at most MAX_TEXT_CHARS. */
export default function run(input: ToolInput, mode: string): Result {
  const text = input.text as string;
  return RUNS[mode as Mode](text, text.match(WORD) ?? []);
}
`;
  return flavour === 'ts' ? ts : withoutTypes(ts);
}

/**
 * The run module as plain JavaScript, for a package: the TypeScript one with its few type
 * annotations taken out (the package's own test runs it, so a missed one fails there).
 */
function withoutTypes(ts: string): string {
  return ts
    .replace("import type { ToolInput } from '#tool-kit';\n", '')
    .replace('import { type MODES, TOP_WORDS }', 'import { TOP_WORDS }')
    .replace(/^type \w+ = .*\n/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\/\/ One entry per mode .*\n/m, '')
    .replace('const RUNS: Record<Mode, (text: string, words: string[]) => Result> =', 'const RUNS =')
    .replace('new Map<string, number>()', 'new Map()')
    .replace('run(input: ToolInput, mode: string): Result', 'run(input, mode)')
    .replace('input.text as string', 'input.text')
    .replace('RUNS[mode as Mode]', 'RUNS[mode]')
    .replaceAll('tool.ts', 'tool.js');
}

export function runTestTs(id: string): string {
  return `import { describe, expect, it } from 'vitest';
import run from './run.js';
import tool, { MAX_TEXT_CHARS, MODES, TOP_WORDS } from './tool.js';

describe('${id}', () => {
  it('counts code points, words and lines', () => {
    expect(run({ text: 'Hello, wörld!\\nIt’s a well-known 2nd line 👋' }, 'count')).toEqual({
      mode: 'count',
      characters: 42,
      words: 7,
      lines: 2,
    });
  });

  it('counts nothing in an empty text', () => {
    expect(run({ text: '' }, 'count')).toEqual({ mode: 'count', characters: 0, words: 0, lines: 0 });
  });

  it('lists distinct words case-insensitively, the most frequent first, then alphabetically', () => {
    expect(run({ text: 'the cat and THE dog; the Cat.' }, 'unique')).toEqual({
      mode: 'unique',
      words: 7,
      unique: 4,
      top: [
        { word: 'the', count: 3 },
        { word: 'cat', count: 2 },
        { word: 'and', count: 1 },
        { word: 'dog', count: 1 },
      ],
    });
  });

  it('runs every mode tool.ts declares, within its bounds on the largest text', () => {
    expect(Object.keys(tool.modes?.each ?? {})).toEqual([...MODES]);
    const text = Array.from({ length: MAX_TEXT_CHARS / 8 }, (_, i) => \`w\${i % 50} \`).join('');
    for (const mode of MODES) expect(run({ text }, mode).words).toBe(MAX_TEXT_CHARS / 8);
    expect((run({ text }, 'unique').top as unknown[]).length).toBe(TOP_WORDS);
  });
});
`;
}
