import { basename, relative, sep } from 'node:path';
import { POLICY_DEFAULTS } from '../config/policy.js';
import { errorTableMarkdown } from '../errors.js';
import { projectRoot } from '../paths.js';
import type { RegisteredTool } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def.js';
import { conformanceTable, readConformance } from './conformance.js';
import { envTable, HEADLINE_SETTINGS } from './env-table.js';
import { readExamples, readOptionExamples } from './examples.js';
import { numberWord } from './sections.js';
import { cacheableWhen } from './skill-sections.js';

/** The project's documents that carry generated sections, relative to the project root. */
export const GENERATED_DOCS = ['README.md', 'docs/api.md', 'docs/operations.md', 'docs/tools.md'] as const;
export type GeneratedDoc = (typeof GENERATED_DOCS)[number];

/**
 * The generated sections of the project's documents, by file, each between
 * `<!-- name:start -->` and `<!-- name:end -->`. `npm run docs` writes them;
 * test/docs.test.ts fails when a file differs, so the docs cannot drift from the code.
 */
export function docSections(
  unsorted: readonly RegisteredTool[],
): Record<GeneratedDoc, Record<string, string>> {
  // Every table lists the tools by id.
  const registered = [...unsorted].sort((a, b) => a.def.id.localeCompare(b.def.id));
  const tools = registered.map((t) => t.def);
  return {
    'README.md': {
      count: numberWord(tools.length),
      tour: tourTable(registered),
      settings: envTable(HEADLINE_SETTINGS),
    },
    'docs/api.md': {
      dedicated: dedicatedTable(tools),
      errors: errorTableMarkdown(),
      policies: policyTable(tools),
      cacheable: cacheableTable(tools),
    },
    'docs/operations.md': { env: envTable(undefined, { accepted: true }) },
    'docs/tools.md': { tools: toolList(registered, '../') },
  };
}

/** A tool's agent guide, relative to the project root (tools/<toolId>/SKILL.md). */
function guidePath(tool: RegisteredTool): string {
  return `${relative(projectRoot, tool.docsDir).split(sep).join('/')}/SKILL.md`;
}

/** The README's tour: one row per tool of the registry, linking to its example and its agent guide. */
function tourTable(tools: readonly RegisteredTool[]): string {
  const rows = tools.map((tool) => {
    const t = tool.def;
    const endpoints = t.endpoints
      .map((e) => `\`${e.methods.length === 1 ? `${e.methods[0]} ` : ''}${e.path}\``)
      .join('<br>');
    const example = `docs/tools.md#${headingSlug(toolHeading(t))}`;
    return `| [${cell(t.name)}](${example}) | \`${t.id}\` | ${cell(oneLine(t.description))} | ${endpoints} | [SKILL.md](${guidePath(tool)}) |`;
  });
  return [
    '| tool | toolId | what it does | dedicated endpoint | agent guide |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * A tool's description in one short sentence: its first sentence, without the
 * parenthesised lists and without what follows a colon or a semicolon.
 */
export function oneLine(description: string): string {
  const first = description.split(/(?<=\.)\s+(?=[A-Z])/)[0]!;
  const short = first
    .replace(/\s*\([^()]*\)/g, '')
    .split(/:\s|;\s/)[0]!
    .replace(/\.$/, '');
  return `${short}.`;
}

/** The heading of a tool in docs/tools.md. */
function toolHeading(t: ToolSpec): string {
  return `${t.name} (\`${t.id}\`)`;
}

/**
 * The anchor GitHub gives a Markdown heading: lower case, every character but letters,
 * digits, `_`, `-` and spaces dropped, spaces as hyphens (a repeated heading gets `-1`, ...).
 */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The dedicated surface of every tool: endpoints and the named fields behind a, b, c, mode. */
function dedicatedTable(tools: readonly ToolSpec[]): string {
  const rows = tools.map((t) => {
    const endpoints = t.endpoints
      .map((e) => `${e.methods.join('/')} \`${e.path}\`${e.mode ? ` (${e.mode})` : ''}`)
      .join('<br>');
    const slot = (s: 'a' | 'b' | 'c') => {
      const names = new Set(
        [t.fields[s], ...Object.values(t.fieldsByMode ?? {}).map((f) => f[s])].filter(Boolean),
      );
      return names.size ? [...names].map((n) => `\`${n}\``).join(' or ') : '-';
    };
    const mode = t.modeField ? `\`${t.modeField}\`` : '(path)';
    return `| ${t.id} | ${endpoints} | ${slot('a')} | ${slot('b')} | ${slot('c')} | ${mode} |`;
  });
  return ['| toolId | dedicated endpoints | a | b | c | mode |', '|---|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}

/**
 * Each tool with its endpoints and its basic example: the request and the real answer.
 * `root` leads from the document's folder to the project root (links to the agent guides).
 */
function toolList(tools: readonly RegisteredTool[], root: string): string {
  return tools
    .map((tool) => {
      const t = tool.def;
      const { basic, expectedOutput } = readExamples(tool.docsDir);
      const endpoints = t.endpoints.map((e) => `\`${e.methods.join('|')} ${e.path}\``).join(', ');
      const guide = guidePath(tool);
      return [
        `## ${toolHeading(t)}`,
        '',
        t.description,
        '',
        `Dedicated endpoints: ${endpoints}; modes: ${t.modes.map((m) => `\`${m}\``).join(', ')}. Agent guide: [${guide}](${root}${guide}).`,
        '',
        '```sh',
        `curl -s -X POST localhost:8080/api/tools/run/ -H 'content-type: application/json' \\`,
        `  -d '${JSON.stringify(basic).replaceAll("'", "'\\''")}'`,
        '```',
        '',
        '```json',
        JSON.stringify({ ok: true, result: trimStrings(expectedOutput) }, null, 2),
        '```',
        ...optionLines(tool),
        ...withBlank(conformanceTable(readConformance(tool.docsDir))),
      ].join('\n');
    })
    .join('\n\n');
}

/** The option examples of a tool, one line each (none: no lines). */
function optionLines(tool: RegisteredTool): string[] {
  const options = readOptionExamples(tool.docsDir);
  if (options.length === 0) return [];
  const lines = options.map(([path, example]) => {
    const input = JSON.stringify(example.request.input);
    const on = example.path ? ` on \`POST ${example.path}\`` : '';
    return `- ${example.description} (\`${basename(path)}\`)${on}: \`${input.length > 200 ? `${input.slice(0, 200)}…` : input}\``;
  });
  return ['', 'Its options, by example (`examples/options/`, each run by the tests):', '', ...lines];
}

function withBlank(text: string): string[] {
  return text ? ['', text] : [];
}

/** Long strings (SVG, snippets) are cut for the docs; the example files hold them whole. */
function trimStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 160 ? `${value.slice(0, 160)}…` : value;
  if (Array.isArray(value))
    return value.length > 6 ? [...value.slice(0, 6).map(trimStrings), '…'] : value.map(trimStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimStrings(v)]));
  }
  return value;
}

function policyTable(tools: readonly ToolSpec[]): string {
  const rows = tools.map((t) => {
    const p = t.policy;
    const budget = Math.round(p.windowSec * 1000 * POLICY_DEFAULTS.computeBudgetFraction);
    return `| ${t.id} | ${p.limit} | ${p.burst} | ${p.windowSec} | ${p.inputMaxBytes} | ${p.timeoutMs} | ${budget} | ${t.riskClass} |`;
  });
  return [
    '| toolId | limit | burst | windowSec | inputMaxBytes | timeoutMs | computeBudgetMs | riskClass |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * Which tools' results are cacheable and carry an ETag (their `deterministic` declaration),
 * and the fields whose JSON value and JSON text share a key (their `jsonText`).
 */
function cacheableTable(tools: readonly ToolSpec[]): string {
  const rows = tools.map((t) => {
    const fields = (t.jsonText ?? []).map((f) => `\`${f}\``).join(', ') || '—';
    return `| ${t.id} | ${cacheableWhen(t)} | ${fields} |`;
  });
  return [
    '| toolId | cacheable, with an ETag | a JSON value keyed as its JSON text |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
