import { ENV_SCHEMA } from '../config/env.js';
import { POLICY_DEFAULTS } from '../config/policy.js';
import { errorTableMarkdown } from '../errors.js';
import type { ToolDefinition } from '../shared/tool-def.js';
import { readExamples } from './examples.js';

/**
 * The README's generated sections, each between `<!-- name:start -->` and
 * `<!-- name:end -->`. `npm run docs` writes them; test/readme.test.ts fails when the
 * README differs, so the docs cannot drift from the code.
 */
export function readmeSections(tools: readonly ToolDefinition[]): Record<string, string> {
  return {
    errors: errorTableMarkdown(),
    env: envTable(),
    policies: policyTable(tools),
    tools: toolList(tools),
    dedicated: dedicatedTable(tools),
  };
}

/** The dedicated surface of every tool: endpoints and the named fields behind a, b, c, mode. */
function dedicatedTable(tools: readonly ToolDefinition[]): string {
  const rows = [...tools]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((t) => {
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

/** Each tool with its endpoints and its basic example: the request and the real answer. */
function toolList(tools: readonly ToolDefinition[]): string {
  return [...tools]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((t) => {
      const { basic, expectedOutput } = readExamples(t.id);
      const endpoints = t.endpoints.map((e) => `\`${e.methods.join('|')} ${e.path}\``).join(', ');
      return [
        `### ${t.name} (\`${t.id}\`)`,
        '',
        t.description,
        '',
        `Endpoints: ${endpoints}; modes: ${t.modes.map((m) => `\`${m}\``).join(', ')}. Agent guide: [skills/${t.id}/SKILL.md](skills/${t.id}/SKILL.md).`,
        '',
        '```sh',
        `curl -s -X POST localhost:8080/api/tools/run/ -H 'content-type: application/json' \\`,
        `  -d '${JSON.stringify(basic).replaceAll("'", "'\\''")}'`,
        '```',
        '',
        '```json',
        JSON.stringify({ ok: true, result: trimStrings(expectedOutput) }, null, 2),
        '```',
      ].join('\n');
    })
    .join('\n\n');
}

/** Long strings (SVG, snippets) are cut for the README; the example files hold them whole. */
function trimStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 160 ? `${value.slice(0, 160)}…` : value;
  if (Array.isArray(value))
    return value.length > 6 ? [...value.slice(0, 6).map(trimStrings), '…'] : value.map(trimStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimStrings(v)]));
  }
  return value;
}

function envTable(): string {
  const rows = Object.entries(ENV_SCHEMA.properties).map(([name, p]) => {
    const prop = p as { default?: unknown; description: string };
    const def = prop.default === undefined ? '(unset)' : `\`${String(prop.default)}\``;
    return `| \`${name}\` | ${name === 'POOL_THREADS' ? 'CPU count, 1..4' : def} | ${prop.description} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

function policyTable(tools: readonly ToolDefinition[]): string {
  const rows = [...tools]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((t) => {
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

/** Replaces every generated section of `readme` with its current text. */
export function applySections(readme: string, sections: Record<string, string>): string {
  let out = readme;
  for (const [name, body] of Object.entries(sections)) {
    const re = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!re.test(out)) throw new Error(`README has no section '${name}'`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}\n${body}\n${close}`);
  }
  return out;
}
