import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const sov = toolRunner(tool, run);

const SCHEMA = { type: 'object', properties: { answer: { type: 'integer' } }, required: ['answer'] };

type Lenient = {
  valid: boolean;
  errors: { path: string; keyword: string; message: string }[];
  extractedFrom: string | null;
  extracted: string | null;
  extractedRange?: { start: number; end: number };
  candidates?: number;
};
const lenient = async (target: unknown, schema: unknown = SCHEMA) =>
  (await sov({ schema, target }, 'lenient')) as Lenient;

describe('lenient mode', () => {
  it('takes a whole JSON text as raw', async () => {
    const r = await lenient('  {"answer": 42}\n');
    expect(r).toMatchObject({ valid: true, extractedFrom: 'raw', extracted: '{"answer": 42}' });
  });

  it('takes a JSON value as raw', async () => {
    expect(await lenient({ answer: 'x' })).toMatchObject({
      valid: false,
      extractedFrom: 'raw',
      errors: [{ path: '/answer', keyword: 'type' }],
    });
  });

  it('pulls JSON out of a ```json fence, with the range into the target', async () => {
    const text = 'Sure! Here it is:\n```json\n{"answer": 7}\n```\nAnything else?';
    const r = await lenient(text);
    expect(r).toMatchObject({ valid: true, extractedFrom: 'code-fence', extracted: '{"answer": 7}' });
    expect(text.slice(r.extractedRange!.start, r.extractedRange!.end)).toBe(r.extracted);
  });

  it('handles inline and untagged fences, and prefers json fences', async () => {
    expect(await lenient('Sure! ```json {"answer": "7"} ```')).toMatchObject({
      valid: false,
      extractedFrom: 'code-fence',
      errors: [{ path: '/answer', keyword: 'type' }],
    });
    expect((await lenient('```\n{"answer": 1}\n```')).extracted).toBe('{"answer": 1}');
    const two = '```python\nprint({"answer": 1})\n```\n```json\n{"answer": 2}\n```';
    expect((await lenient(two)).extracted).toBe('{"answer": 2}');
  });

  it('reads a fence left open by truncated output', async () => {
    expect(await lenient('Result:\n```json\n{"answer": 3}')).toMatchObject({
      valid: true,
      extractedFrom: 'code-fence',
    });
  });

  it('finds JSON embedded in prose, the longest candidate winning over footnotes', async () => {
    const text = 'As noted in [1], the result is {"answer": 5, "note": "braces } in strings"} — done.';
    const r = await lenient(text);
    expect(r).toMatchObject({ valid: true, extractedFrom: 'embedded', candidates: 2 });
    expect(JSON.parse(r.extracted!)).toEqual({ answer: 5, note: 'braces } in strings' });
    expect(text.slice(r.extractedRange!.start, r.extractedRange!.end)).toBe(r.extracted);
  });

  it('skips brace text that is not JSON and keeps looking', async () => {
    const r = await lenient('Use {placeholder} syntax. Output: {"answer": 9}');
    expect(r).toMatchObject({ valid: true, extracted: '{"answer": 9}' });
  });

  it('handles Unicode around and inside the JSON', async () => {
    const schema = { type: 'object', properties: { mot: { maxLength: 5 } } };
    const r = await lenient('Voilà 😀 : {"answer": 1, "mot": "été 字"}', schema);
    expect(r).toMatchObject({
      valid: true,
      extractedFrom: 'embedded',
      extracted: '{"answer": 1, "mot": "été 字"}',
    });
    const longer = await lenient('😀 {"mot": "été 字😀"}', schema);
    expect(longer.errors).toEqual([expect.objectContaining({ path: '/mot', keyword: 'maxLength' })]);
  });

  it('reports no JSON as valid false with a json error, not as a request error', async () => {
    const r = await lenient('I could not produce an answer.');
    expect(r).toMatchObject({ valid: false, extractedFrom: null, extracted: null });
    expect(r.errors).toEqual([
      { path: '', keyword: 'json', message: expect.stringMatching(/no JSON found/) },
    ]);
  });

  it('reports a broken json fence with its line instead of a fragment inside it', async () => {
    const r = await lenient('Here:\n```json\n{"answer": {"x": 1},}\n```');
    expect(r.extractedFrom).toBeNull();
    expect(r.errors[0]?.message).toMatch(
      /code fence at line 2 holds no valid JSON: Expected double-quoted property name \(line 3, column 21\)/,
    );
  });

  it('reports a broken embedded object with its place', async () => {
    const r = await lenient('Result: {"answer": 1,}');
    expect(r.errors[0]?.message).toMatch(/\{\.\.\.\} at line 1, column 9 is not valid JSON/);
  });

  it('still requires the target and refuses an empty one gently', async () => {
    await expectToolError(sov({ schema: SCHEMA }, 'lenient'), 'INVALID_INPUT', /^target is required/);
    expect((await lenient('   ')).errors[0]?.message).toMatch(/empty/);
  });

  it('stays bounded on many unbalanced braces near the size limit', async () => {
    const text = `${'{'.repeat(200_000)} {"answer": 1}`;
    const r = await lenient(text);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.keyword).toBe('json');
  });
});
