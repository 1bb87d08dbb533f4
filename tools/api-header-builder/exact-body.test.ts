import { describe, expect, it } from 'vitest';
import { hasProtoKey, lossyNumber } from '../_shared/json-exact.js';
import { expectToolError } from '../_shared/test-helpers.js';
import { buildRequest, curlArgs, runAxios, runFetch, runPython } from './test-harness.js';

const url = 'https://api.example.com/items';

describe('lossyNumber', () => {
  it.each([
    ['{"id": 12345678901234567890}', '12345678901234567890'],
    ['[0.30000000000000004444]', '0.30000000000000004444'],
    ['[1e-400, 2]', '1e-400'],
    ['[1e400]', '1e400'],
  ])('finds the rounded number in %s', (text, token) => {
    expect(lossyNumber(text)).toBe(token);
  });

  it.each([
    '{"a": 1.0, "b": 1e2, "c": -0, "d": 0.1, "e": 9007199254740991, "f": -2.5E-3}',
    '["12345678901234567890"]',
    '{"x\\"1": 2}',
  ])('accepts %s', (text) => {
    expect(lossyNumber(text)).toBeUndefined();
  });

  it('finds __proto__ keys at any depth', () => {
    expect(hasProtoKey(JSON.parse('[{"a": {"__proto__": 1}}]'))).toBe(true);
    expect(hasProtoKey({ proto: 1, list: ['__proto__'] })).toBe(false);
  });
});

/** What each client would send, as JSON text when it sends a value. */
async function sentBodies(result: Awaited<ReturnType<typeof buildRequest>>): Promise<unknown[]> {
  const asText = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));
  const bodies: unknown[] = [
    asText((await runFetch(result.snippets.fetch)).body),
    asText((await runAxios(result.snippets.axios)).body),
  ];
  bodies.push(asText(runPython(result.snippets.python).body));
  const args = curlArgs(result.snippets.curl);
  bodies.push(args[args.indexOf('--data-raw') + 1]);
  return bodies;
}

describe('JSON bodies that a code literal would change', () => {
  // Before: `JSON.stringify({"__proto__": …})` in fetch/axios set the prototype and sent `{"a":2}`.
  it('keeps a __proto__ key in every snippet', async () => {
    const result = await buildRequest({ url, body: '{"__proto__": {"x": 1}, "a": 2}' }, 'POST');
    expect(result.request.body).toBe('{"__proto__":{"x":1},"a":2}');
    for (const body of await sentBodies(result)) expect(body).toBe(result.request.body);
  });

  // Before: the id was rounded to 12345678901234567000 in the request and every snippet.
  it('sends an integer past 2^53 verbatim, with a warning', async () => {
    const body = '{"id": 12345678901234567890, "big": [1e400]}';
    const result = await buildRequest({ url, body }, 'PUT');
    expect(result.request).toMatchObject({ body, headers: { 'Content-Type': 'application/json' } });
    expect(result.bodyType).toBe('json');
    expect(result.warnings[0]).toMatch(/12345678901234567890 has no exact double form/);
    for (const sent of await sentBodies(result)) expect(sent).toBe(body);
  });
});

describe('refusals', () => {
  const fails = async (input: Record<string, unknown>) =>
    (await expectToolError(buildRequest(input, 'POST'), 'INVALID_INPUT')).message;

  // Before: accepted, and the Python snippet died with UnicodeEncodeError.
  it('a text body with a lone surrogate', async () => {
    expect(await fails({ url, body: 'a\ud800b' })).toMatch(/lone surrogate U\+D800/);
    await expect(buildRequest({ url, body: 'ok 😀' }, 'POST')).resolves.toMatchObject({ bodyType: 'text' });
  });

  // Before: sent as text with the warning "does not parse", though it parses.
  it('JSON text nested too deep, as for a JSON value', async () => {
    expect(await fails({ url, body: `${'['.repeat(66)}${']'.repeat(66)}` })).toMatch(/deeper than 64/);
  });
});
