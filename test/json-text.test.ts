import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanTools } from '../src/registry.js';
import { type ToolSpec, takesJsonOrText } from '../src/shared/tool-def.js';
import { buildTestApp, policyFile, type TestApp } from './helpers.js';
import { CASES, dedicatedRequest } from './tool-cases.js';

/**
 * The content key's two promises about a run's input (docs/api.md, "Result cache and ETags"),
 * checked against real runs of every tool through its dedicated endpoint:
 * - a field a tool declares in `jsonText` answers the same to a JSON value and to its JSON
 *   text, and the two share one ETag (so one cache entry); the order of the named fields
 *   does not matter either;
 * - the order of keys inside a value is kept apart: a tool's answer may follow it, and a
 *   cache that sorted them answered one order's bytes to the other under the same ETag.
 */

const tools = [...(await scanTools()).values()].map((t) => t.def);

type Input = Record<string, unknown>;

/** Fields that take a string or a JSON value (object or array): the ones a client may send either way. */
function structuredFields(def: ToolSpec): string[] {
  return Object.keys(def.input.properties ?? {}).filter((name) => takesJsonOrText(def, name));
}

/** The case's value of `field` as a JSON value (object or array), or undefined when it has none. */
function jsonValueOf(input: Input, field: string): object | undefined {
  const v = input[field];
  if (typeof v !== 'string') return v !== null && typeof v === 'object' ? v : undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return parsed !== null && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

let app: TestApp;
beforeAll(async () => {
  const file = await policyFile({
    tools: Object.fromEntries(
      tools.map((def) => [def.id, { limit: 1_000_000, burst: 1000, cacheTtlSec: 300 }]),
    ),
  });
  app = await buildTestApp({ POLICY_FILE: file }, true);
});
afterAll(async () => {
  await app?.close();
});

async function post(def: ToolSpec, mode: string, input: Input) {
  const { url, body } = dedicatedRequest(def, mode, input);
  const res = await app.inject({ method: 'POST', url, payload: body });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return { etag: res.headers.etag, result: res.json().result as unknown };
}

const reversed = (input: Input): Input => Object.fromEntries(Object.entries(input).reverse());

/** The cases of `def` that send a structured field, once per such field. */
function runsOf(def: ToolSpec) {
  return (CASES[def.id] ?? []).flatMap(([mode, input]) =>
    structuredFields(def)
      .map((field) => ({ mode, input, field, value: jsonValueOf(input, field) }))
      .filter((r) => r.value !== undefined),
  );
}

it('every jsonText field is sent by some case', () => {
  for (const def of tools)
    for (const field of def.jsonText ?? [])
      expect(
        runsOf(def).some((r) => r.field === field),
        `${def.id} ${field}`,
      ).toBe(true);
});

describe.each(tools.filter((def) => runsOf(def).length > 0).map((def) => [def.id, def] as const))(
  '%s',
  (_id, def) => {
    const declared = def.jsonText ?? [];
    const runs = runsOf(def);

    const same = runs.filter((r) => declared.includes(r.field));
    if (same.length > 0)
      it.each(same.map((r) => [r.field, r.mode, r] as const))(
        'takes %s (mode %s) as a value or its JSON text alike: one answer, one ETag',
        async (_f, _m, r) => {
          const asValue = await post(def, r.mode, { ...r.input, [r.field]: r.value });
          const asText = await post(
            def,
            r.mode,
            reversed({ ...r.input, [r.field]: JSON.stringify(r.value) }),
          );
          expect(asValue.etag).toMatch(/^"/);
          expect(asText.etag).toBe(asValue.etag);
          expect(asText.result).toEqual(asValue.result);
        },
      );

    const apart = runs.filter((r) => !declared.includes(r.field));
    if (apart.length > 0)
      it.each(apart.map((r) => [r.field, r.mode, r] as const))(
        'keeps %s (mode %s) as a value and as text apart (not in jsonText)',
        async (_f, _m, r) => {
          const asValue = await post(def, r.mode, { ...r.input, [r.field]: r.value });
          const asText = await post(def, r.mode, { ...r.input, [r.field]: JSON.stringify(r.value) });
          expect(asText.etag).not.toBe(asValue.etag);
        },
      );
  },
);

describe('the order of keys inside a value', () => {
  const def = (id: string) => tools.find((t) => t.id === id)!;

  it('gives a generated schema its own property order, not a cached one', async () => {
    const first = await post(def('schema-generator'), 'draft-07', { sample: { zeta: 1, alpha: 'x' } });
    const second = await post(def('schema-generator'), 'draft-07', { sample: { alpha: 'x', zeta: 1 } });
    expect(second.etag).not.toBe(first.etag);
    const keys = (r: unknown) => Object.keys((r as { schema: { properties: object } }).schema.properties);
    expect(keys(first.result)).toEqual(['zeta', 'alpha']);
    expect(keys(second.result)).toEqual(['alpha', 'zeta']);
  });

  it('gives generated code its own header order, not a cached one', async () => {
    const url = 'https://api.example.com/items';
    const first = await post(def('api-header-builder'), 'GET', { url, headers: { 'X-B': '1', 'X-A': '2' } });
    const second = await post(def('api-header-builder'), 'GET', { url, headers: { 'X-A': '2', 'X-B': '1' } });
    expect(second.etag).not.toBe(first.etag);
    const fetchCode = (r: unknown) => (r as { snippets: { fetch: string } }).snippets.fetch;
    expect(fetchCode(first.result).indexOf('X-B')).toBeLessThan(fetchCode(first.result).indexOf('X-A'));
    expect(fetchCode(second.result).indexOf('X-A')).toBeLessThan(fetchCode(second.result).indexOf('X-B'));
  });

  it('keeps a number past a double (1e400) apart from null', async () => {
    const validator = def('structured-output-validator');
    const schema = { type: 'object', properties: { n: { type: 'null' } } };
    const big = await app.inject({
      method: 'POST',
      url: '/api/schema-validator/',
      headers: { 'content-type': 'application/json' },
      payload: `{"schema":${JSON.stringify(schema)},"target":{"n":1e400}}`,
    });
    const nul = await post(validator, 'validate', { schema, target: { n: null } });
    expect(big.statusCode).toBe(200);
    expect(big.headers.etag).not.toBe(nul.etag);
    expect((nul.result as { valid: boolean }).valid).toBe(true);
    expect(big.json().result.valid).toBe(false);
  });
});
