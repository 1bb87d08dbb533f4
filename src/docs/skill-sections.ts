import type { ToolPolicy } from '../config/policy.js';
import { fieldsFor, type ToolSpec } from '../shared/tool-def.js';

/**
 * The generated sections of `tools/<toolId>/SKILL.md`: inputs, endpoints and limits
 * come from the tool module (and its effective policy), so the numbers an agent reads
 * are the numbers the hub enforces. Prose around them is written by hand.
 */
export function skillSections(def: ToolSpec, policy: ToolPolicy): Record<string, string> {
  return { inputs: inputsTable(def), endpoints: endpointsList(def), limits: limitsTable(def, policy) };
}

function inputsTable(def: ToolSpec): string {
  const props = (def.input.properties ?? {}) as Record<string, { type?: unknown; default?: unknown }>;
  const required = new Set((def.input.required as string[] | undefined) ?? []);
  /** One field's row, its generic name (a slot or `options.<name>`) first. */
  const row = (generic: string, name: string, modes: string) => {
    const p = props[name] ?? {};
    const type = Array.isArray(p.type) ? p.type.join(' or ') : String(p.type ?? 'any');
    const req = required.has(name)
      ? 'yes'
      : p.default !== undefined
        ? `no (default ${JSON.stringify(p.default)})`
        : 'no';
    return `| \`${generic}\` | \`${name}\` | ${type} | ${req} | ${modes} | ${cell(def.semanticFields[name] ?? '')} |`;
  };
  const rows: string[] = [];
  const seen = new Set<string>();
  for (const mode of def.modes) {
    const fields = fieldsFor(def, mode);
    for (const slot of ['a', 'b', 'c'] as const) {
      const name = fields[slot];
      if (!name || seen.has(`${slot}:${name}`)) continue;
      seen.add(`${slot}:${name}`);
      const modes =
        def.fieldsByMode && Object.keys(def.fieldsByMode).length > 0 ? modesOf(def, slot, name) : 'all';
      rows.push(row(slot, name, modes));
    }
  }
  for (const name of Object.keys(props)) {
    const modes = def.optionModes?.[name];
    // A slot field is an option too in the modes that displace it and still take it.
    if ([...seen].some((s) => s.endsWith(`:${name}`)) && !modes) continue;
    rows.push(row(`options.${name}`, name, modes?.join(', ') ?? 'all'));
  }
  const modeField = def.modeField ? `\`${def.modeField}\`` : '(implied by the dedicated path)';
  rows.push(
    `| \`mode\` | ${modeField} | string | no (default \`${def.modes[0]}\`) | - | ${def.modes.map((m) => `\`${m}\``).join(', ')} |`,
  );
  return [
    '| generic | dedicated field | type | required | modes | meaning |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function modesOf(def: ToolSpec, slot: 'a' | 'b' | 'c', name: string): string {
  return def.modes.filter((m) => fieldsFor(def, m)[slot] === name).join(', ');
}

function endpointsList(def: ToolSpec): string {
  const lines = [`- \`GET|POST /api/tools/run/\` with \`toolId=${def.id}\` (generic runtime)`];
  for (const ep of def.endpoints) {
    const mode = ep.mode
      ? ` (mode \`${ep.mode}\`)`
      : ep.modes
        ? ` (modes ${ep.modes.map((m) => `\`${m}\``).join(', ')})`
        : '';
    lines.push(`- \`${ep.methods.join('|')} ${ep.path}\`${mode}: ${ep.summary}`);
  }
  return lines.join('\n');
}

function limitsTable(def: ToolSpec, p: ToolPolicy): string {
  const when = cacheableWhen(def);
  const cache =
    when === 'never'
      ? 'Results are not deterministic: no ETag, never cached.'
      : `Deterministic (${when}): the same input gives the same result, and every success carries an \`ETag\`; send it back as \`If-None-Match\` and the answer is 304 with nothing run. Result cache: ${p.cacheTtlSec > 0 ? `on, ${p.cacheTtlSec} s` : 'off'}.`;
  return [
    '| limit | burst | windowSec | inputMaxBytes | timeoutMs | computeBudgetMs | maxInFlightPerClient | riskClass |',
    '|---|---|---|---|---|---|---|---|',
    `| ${p.limit} | ${p.burst} | ${p.windowSec} | ${p.inputMaxBytes} | ${p.timeoutMs} | ${p.computeBudgetMs} | ${p.maxInFlightPerClient} | ${p.riskClass} |`,
    '',
    cache,
  ].join('\n');
}

/** When a tool's results are cacheable and carry an ETag, from its `deterministic` declaration. */
export function cacheableWhen(def: ToolSpec): string {
  const d = def.deterministic;
  if (d === true) return 'always';
  if (d === false) return 'never';
  const fields = d.whenGiven.map((f) => `\`${f}\``).join(' and ');
  return `when ${fields} ${d.whenGiven.length > 1 ? 'are' : 'is'} given`;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
