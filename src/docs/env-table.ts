import { ENV_SCHEMA } from '../config/env.js';

/** The settings the README shows; docs/operations.md has them all. */
export const HEADLINE_SETTINGS = [
  'PORT',
  'REDIS_URL',
  'POLICY_FILE',
  'RUNTIME_ENABLED',
  'DISABLED_TOOLS',
  'POOL_THREADS',
  'POOL_OVERFLOW_THREADS',
  'QUEUE_WAIT_MS',
  'CAP_WAIT_MS',
  'TRUST_PROXY',
  'REQUEST_TIMEOUT_MS',
  'MAX_CONNECTIONS',
  'JUNK_LIMIT',
  'SHUTDOWN_TIMEOUT_MS',
] as const;

/**
 * The environment variables (only `names` when given) with their defaults and meaning;
 * `accepted`: with the values the schema takes too (its bounds, values and shapes).
 */
export function envTable(names?: readonly string[], opts: { accepted?: boolean } = {}): string {
  const all = Object.entries(ENV_SCHEMA.properties);
  for (const name of names ?? []) {
    if (!all.some(([n]) => n === name)) throw new Error(`no environment variable ${name} in ENV_SCHEMA`);
  }
  const rows = all
    .filter(([name]) => !names || names.includes(name))
    .map(([name, p]) => {
      const prop = p as EnvProperty;
      const def =
        prop.default === undefined
          ? '(unset)'
          : prop.default === ''
            ? '(none)'
            : `\`${String(prop.default)}\``;
      const shown = name === 'POOL_THREADS' ? 'CPU count, 1..4' : def;
      const accepted = opts.accepted ? ` ${acceptedValues(name, prop)} |` : '';
      return `| \`${name}\` | ${shown} |${accepted} ${prop.description} |`;
    });
  const head = opts.accepted
    ? ['| variable | default | accepted | meaning |', '|---|---|---|---|']
    : ['| variable | default | meaning |', '|---|---|---|'];
  return [...head, ...rows].join('\n');
}

/** What envTable reads of a variable's schema. */
export interface EnvProperty {
  type?: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  default?: unknown;
  description: string;
}

/** The shapes the schema's patterns take, in words: a pattern added to ENV_SCHEMA needs its line here. */
const PATTERN_WORDS: Record<string, string> = {
  REDIS_URL: 'a `redis://` or `rediss://` URL',
  CACHE_REDIS_URL: 'a `redis://` or `rediss://` URL',
  HUB_PROCESSES: '`1`..`99` or `auto`',
  PUBLIC_BASE_URL: 'an `http://` or `https://` address without a trailing `/`',
  CORS_ORIGINS: '`*`, or `http(s)://` origins (host, optional port), comma-separated',
  WEBHOOK_SECRET: '`whsec_` and base64 (32 bytes or more); two, space-separated, while rotating',
};

/**
 * The values the boot accepts for a variable, from its schema: an integer's or a number's
 * bounds (past them the boot stops: `BODY_LIMIT_BYTES="100" must be >= 1024`), an enum's
 * values, a pattern's shape in words. Any other string: `text`.
 */
export function acceptedValues(name: string, prop: EnvProperty): string {
  if (prop.enum) return prop.enum.map((v) => `\`${v}\``).join(', ');
  if (prop.type === 'boolean') return '`true`, `false`';
  if (prop.type === 'integer' || prop.type === 'number') {
    const kind = prop.type === 'integer' ? 'integer' : 'number';
    const { minimum: min, maximum: max, exclusiveMinimum: above } = prop;
    if (min !== undefined && max !== undefined) return `${kind} \`${min}\`..\`${max}\``;
    const bounds = [
      min !== undefined ? `>= \`${min}\`` : '',
      above !== undefined ? `> \`${above}\`` : '',
      max !== undefined ? `<= \`${max}\`` : '',
    ].filter(Boolean);
    return bounds.length ? `${kind} ${bounds.join(', ')}` : kind;
  }
  if (prop.pattern) {
    const words = PATTERN_WORDS[name];
    if (!words) throw new Error(`ENV_SCHEMA.${name} has a pattern: say its shape in PATTERN_WORDS`);
    return words;
  }
  return 'text';
}
