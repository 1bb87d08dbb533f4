import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { MAX_LISTED } from './tool.js';

const call = toolRunner(tool, run);
const count = (input: Record<string, unknown>) => call(input, 'count');
const tokens = (input: Record<string, unknown>) => call(input, 'tokens');

describe('token-counter count mode', () => {
  it('counts "hello world" as 2 tokens with the default gpt-4o / o200k_base', async () => {
    const r = await count({ text: 'hello world' });
    expect(r).toMatchObject({
      tokens: 2,
      encoding: 'o200k_base',
      model: 'gpt-4o',
      characters: 11,
      bytes: 11,
    });
    expect(r.ids).toBeUndefined();
  });

  it.each([
    ['gpt-4', 'cl100k_base', 'hello world', 2],
    ['gpt-4o-mini', 'o200k_base', 'The quick brown fox jumps over the lazy dog.', 10],
    ['gpt-3.5-turbo', 'cl100k_base', 'Ünïcödé façade naïve café', 12],
    ['gpt-4.1', 'o200k_base', 'Ünïcödé façade naïve café', 9],
    ['gpt-oss-120b', 'o200k_base', 'Ünïcödé façade naïve café', 9],
    ['text-davinci-003', 'p50k_base', 'Ünïcödé façade naïve café', 13],
    ['gpt-4o', 'o200k_base', '中文字符', 2],
    ['gpt-4', 'cl100k_base', '中文字符', 3],
    ['davinci', 'r50k_base', '中文字符', 8],
    ['text-embedding-3-small', 'cl100k_base', 'function add(a, b) { return a + b; }', 13],
    ['code-davinci-002', 'p50k_base', 'function add(a, b) { return a + b; }', 14],
  ])('%s (%s) counts %j as %i tokens', async (model, encoding, text, expected) => {
    const r = await count({ text, model });
    expect(r).toMatchObject({ tokens: expected, encoding, model });
  });

  it('matches js-tiktoken on a mixed multilingual text', async () => {
    const text = 'Prices: €12.50, ¥1,000 — naïve Zürich 東京 🚀🚀 <b>bold</b>\n\tindent  done.';
    const oracle = new Tiktoken(o200k).encode(text, [], []);
    expect((await count({ text })).tokens).toBe(oracle.length);
    expect((await tokens({ text })).ids).toEqual(oracle);
  });

  it('counts the empty text as 0 tokens', async () => {
    expect(await count({ text: '' })).toMatchObject({ tokens: 0, characters: 0, bytes: 0 });
    expect(await tokens({ text: '' })).toMatchObject({ tokens: 0, ids: [], pieces: [], truncated: false });
  });

  it('counts characters as Unicode code points and bytes as UTF-8', async () => {
    const r = await count({ text: 'a😀é中' });
    expect(r.characters).toBe(4); // 'a😀é中'.length is 5 UTF-16 units
    expect(r.bytes).toBe(1 + 4 + 2 + 3);
  });

  it('treats special-token strings as plain text instead of throwing', async () => {
    const r = await tokens({ text: '<|endoftext|>' });
    expect(r.tokens).toBe(7);
    expect(r.ids).not.toContain(199999); // the real <|endoftext|> id in o200k_base
    expect(r.pieces!.join('')).toBe('<|endoftext|>');
    const cl = await count({ text: 'a<|endoftext|>b<|fim_prefix|>', model: 'gpt-4' });
    expect(cl.tokens).toBeGreaterThan(4);
  });
});

describe('token-counter limit', () => {
  it('reports withinLimit and remaining under and over the limit', async () => {
    expect(await count({ text: 'hello world', limit: 5 })).toMatchObject({
      limit: 5,
      withinLimit: true,
      remaining: 3,
    });
    expect(await count({ text: 'hello world', limit: 2 })).toMatchObject({ withinLimit: true, remaining: 0 });
    expect(await count({ text: 'hello world', limit: 1 })).toMatchObject({
      withinLimit: false,
      remaining: -1,
    });
    expect(await count({ text: '', limit: 0 })).toMatchObject({ withinLimit: true, remaining: 0 });
  });

  it('omits the limit fields when no limit is given', async () => {
    const r = await count({ text: 'hi', limit: '' });
    expect(r.withinLimit).toBeUndefined();
    expect(r.remaining).toBeUndefined();
  });
});

describe('token-counter models and encodings', () => {
  it.each([
    ['GPT-4o', 'o200k_base'],
    ['o1', 'o200k_base'],
    ['o3', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['gpt-5-mini', 'o200k_base'],
    ['gpt-4.1-nano-2025-04-14', 'o200k_base'],
    ['gpt-4o-2024-11-20', 'o200k_base'],
    ['gpt-4o-2024-05-13', 'o200k_base'],
    ['ft:gpt-4o-mini:acme::abc', 'o200k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-4-1106-vision-preview', 'cl100k_base'],
    ['gpt-3.5-turbo-instruct-0914', 'cl100k_base'],
    ['text-embedding-ada-002', 'cl100k_base'],
    ['text-embedding-3-large', 'cl100k_base'],
    ['davinci-002', 'cl100k_base'],
    ['text-davinci-002', 'p50k_base'],
    ['text-davinci-edit-001', 'p50k_edit'],
    ['curie', 'r50k_base'],
    ['ada', 'r50k_base'],
  ])('resolves model %s to %s', async (model, encoding) => {
    const r = await count({ text: 'hello', model });
    expect(r.encoding).toBe(encoding);
    expect(r.model).toBe(model.toLowerCase());
  });

  it('accepts an encoding name and then reports no model', async () => {
    const r = await count({ text: 'hello world', model: 'cl100k_base' });
    expect(r).toMatchObject({ encoding: 'cl100k_base', tokens: 2 });
    expect(r.model).toBeUndefined();
  });

  it('gives the same ids for aliases that share ranks (gpt2 = r50k_base, p50k_edit = p50k_base)', async () => {
    const text = 'Aliases share their ranks.';
    expect((await tokens({ text, model: 'gpt2' })).ids).toEqual(
      (await tokens({ text, model: 'r50k_base' })).ids,
    );
    const edit = await tokens({ text, model: 'p50k_edit' });
    expect(edit.encoding).toBe('p50k_edit');
    expect(edit.ids).toEqual((await tokens({ text, model: 'p50k_base' })).ids);
  });

  it('rejects an unknown model with UNSUPPORTED_OPTION listing the known families (bounded)', async () => {
    for (const model of ['llama-4-scout', 'qwen2.5-72b', 'mistral-9000', 'gemma-2-9b', 'x'.repeat(100)]) {
      const err = await expectToolError(count({ text: 'x', model }), 'UNSUPPORTED_OPTION');
      expect(err.message).toContain('is not a model or encoding this tool knows');
      expect(err.message).toContain('o200k_base');
      expect(err.message).toContain('gpt-4o');
      expect(err.message).toContain('Llama 3 (');
      expect(err.message).toContain('Claude (claude-sonnet-4-5');
      expect(err.message.length).toBeLessThan(1_200);
    }
    const err = await expectToolError(count({ text: 'x', model: 'llama-4-scout' }), 'UNSUPPORTED_OPTION');
    expect(err.message).toContain("'llama-4-scout'");
  });

  it.each([
    ['llama-3-8b', 'llama3', 'llama3', true],
    ['Meta-Llama-3.1-405B-Instruct', 'llama3', 'llama3', true],
    ['mistral-7b-v0.1', 'mistral', 'mistral-v1', true],
    ['mistralai/Mistral-7B-Instruct-v0.2', 'mistral', 'mistral-v1', true],
    ['open-mixtral-8x7b', 'mistral', 'mistral-v1', true],
    ['mistral-7b-instruct-v0.3', 'mistral', 'mistral-v1', false],
    ['mixtral-8x22b-instruct-v0.1', 'mistral', 'mistral-v1', false],
    ['mistral-large-2411', 'mistral', 'o200k_base', false],
    ['open-mistral-nemo-2407', 'mistral', 'o200k_base', false],
    ['claude-3-5-haiku-20241022', 'claude', 'cl100k_base', false],
    ['gemini-2.5-flash', 'gemini', 'cl100k_base', false],
    ['models/gemini-1.5-pro', 'gemini', 'cl100k_base', false],
    ['gpt-4o', 'openai', 'o200k_base', true],
  ])('%s is family %s counted by %s (exact %s)', async (model, family, encoding, exact) => {
    const r = await count({ text: 'Hello there, world.', model });
    expect(r).toMatchObject({ family, encoding, exact, model: model.toLowerCase() });
    expect(r.estimate === undefined).toBe(exact);
  });

  it('rejects a non-string model with INVALID_INPUT', async () => {
    // A number would be coerced to its text ("42", then an unknown model): an object cannot be.
    await expectToolError(
      count({ text: 'x', model: { name: 'gpt-4' } }),
      'INVALID_INPUT',
      'model must be string',
    );
  });

  it('reads an empty model as the default', async () => {
    expect(await count({ text: 'hello world', model: '' })).toMatchObject({ model: 'gpt-4o', tokens: 2 });
  });
});

describe('token-counter tokens mode', () => {
  it('lists ids and pieces that join back to the text', async () => {
    const r = await tokens({ text: 'hello world' });
    expect(r).toMatchObject({ ids: [24912, 2375], pieces: ['hello', ' world'], truncated: false });
  });

  it('escapes the bytes of tokens that hold part of a UTF-8 character', async () => {
    const r = await tokens({ text: '🦜' });
    expect(r.characters).toBe(1);
    expect(r.tokens).toBe(3);
    expect(r.pieces).toEqual(['\\xF0\\x9F', '\\xA6', '\\x9C']);
    const whole = await tokens({ text: '😀 中文' });
    expect(whole.pieces!.join('')).toBe('😀 中文');
  });

  it(`lists at most ${MAX_LISTED} ids and pieces but counts every token`, async () => {
    const text = ' word'.repeat(MAX_LISTED + 500);
    const r = await tokens({ text });
    expect(r.tokens).toBe(MAX_LISTED + 500);
    expect(r.ids).toHaveLength(MAX_LISTED);
    expect(r.pieces).toHaveLength(MAX_LISTED);
    expect(r.truncated).toBe(true);
  });
});
