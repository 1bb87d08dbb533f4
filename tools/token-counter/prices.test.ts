import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import {
  PRICES,
  type PriceEntry,
  priceFor,
  priceProblems,
  pricesFrom,
  TOKENIZERS,
  validatePrices,
} from './prices.js';
import table from './prices.json' with { type: 'json' };
import run from './run.js';
import tool, { MAX_EXPECTED_OUTPUT } from './tool.js';

const call = toolRunner(tool, run);
const count = (input: Record<string, unknown>) => call(input, 'count');

describe('price table', () => {
  it('has no malformed entry', () => {
    expect(priceProblems(PRICES)).toEqual([]);
    expect(PRICES.length).toBeGreaterThan(40);
  });

  it('names each malformed entry with what is wrong', () => {
    const good = PRICES[0]!;
    const bad = [
      { ...good, id: 'GPT 4', aliases: undefined },
      { ...good, id: 'a', aliases: undefined, contextWindow: 12.5 },
      { ...good, id: 'b', aliases: ['gpt-5'], input: -1 },
      { ...good, id: 'x', aliases: [], output: '10' as unknown as number },
      { ...good, id: 'y', aliases: ['Y 1'], pricesAsOf: '2025-13-01' },
      { ...good, id: 'z', aliases: undefined, source: 'somewhere', tokenizer: 'gpt2' as never },
      good,
    ] as PriceEntry[];
    const problems = priceProblems(bad);
    expect(problems).toEqual([
      'price table entry 0 (GPT 4): id must be a lower-case model name',
      'price table entry 1 (a): contextWindow must be an integer 1000..10000000',
      'price table entry 2 (b): input must be null or a USD price 0..1000 per million',
      'price table entry 3 (x): aliases must be a non-empty array when given',
      'price table entry 3 (x): output must be null or a USD price 0..1000 per million',
      'price table entry 4 (y): each alias must be a lower-case model name',
      'price table entry 4 (y): pricesAsOf must be a YYYY-MM-DD date',
      `price table entry 5 (z): tokenizer must be one of ${TOKENIZERS.join(', ')}`,
      'price table entry 5 (z): source must name one of the sources or be an https:// address',
      'price table entry 6 (gpt-5): duplicate name gpt-5',
    ]);
    expect(() => validatePrices(bad)).toThrow(/^token-counter price table is malformed: price table entry 0/);
  });

  it('loads prices.json with each source key resolved to its address', () => {
    expect(pricesFrom(table)).toEqual(PRICES);
    expect(PRICES.every((entry) => entry.source.startsWith('https://'))).toBe(true);
    expect(priceFor('claude-sonnet-4-0')?.source).toBe(table.sources.anthropic);
  });

  it('rejects a modified copy of prices.json, naming the entry', () => {
    const copy = structuredClone(table) as { sources: Record<string, string>; entries: unknown[] };
    const index = copy.entries.findIndex((entry) => (entry as PriceEntry).id === 'gpt-4o');
    copy.entries[index] = { ...(copy.entries[index] as object), contextWindow: '128k' };
    copy.entries.push({ ...(copy.entries[0] as object), id: 'gpt-9', aliases: undefined, source: 'nowhere' });
    expect(() => pricesFrom(copy)).toThrow(
      `token-counter price table is malformed: price table entry ${index} (gpt-4o): contextWindow must be an integer 1000..10000000; ` +
        `price table entry ${copy.entries.length - 1} (gpt-9): source must name one of the sources or be an https:// address`,
    );
    // A source key whose address is not one, and an address written out in the entry.
    copy.entries = structuredClone(table.entries);
    const claude = copy.entries.findIndex((entry) => (entry as PriceEntry).source === 'anthropic');
    copy.sources.anthropic = 'anthropic.com';
    expect(() => pricesFrom(copy)).toThrow(
      new RegExp(`entry ${claude} \\(claude-[a-z0-9-]+\\): source must name one of the sources`),
    );
    copy.sources.anthropic = table.sources.anthropic;
    copy.entries[0] = { ...(copy.entries[0] as object), source: 'https://example.com/pricing' };
    expect(pricesFrom(copy)[0]?.source).toBe('https://example.com/pricing');
  });

  it('rejects a table that is not shaped like prices.json', () => {
    for (const bad of [null, [], { entries: [] }, { sources: {}, entries: {} }]) {
      expect(() => pricesFrom(bad)).toThrow(/^token-counter price table is malformed: prices.json must be/);
    }
  });

  it('finds an entry by its id or a documented alias only, never by a prefix', () => {
    expect(priceFor('gpt-4o-2024-08-06')?.id).toBe('gpt-4o');
    expect(priceFor('gpt-4o-mini')?.id).toBe('gpt-4o-mini');
    expect(priceFor('claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4-0');
    expect(priceFor('claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5');
    expect(priceFor('llama-3.1-8b-instruct')?.id).toBe('llama-3.1-8b');
    // What the dated-variant rule used to resolve to a wrong entry (issue 37).
    expect(priceFor('gpt-4-1106-preview')?.id).toBe('gpt-4-1106-preview');
    expect(priceFor('gpt-3.5-turbo-instruct')?.id).toBe('gpt-3.5-turbo-instruct');
    for (const name of [
      'gpt-4-0409',
      'gpt-4o-2031-02-02',
      'gpt-3.5-turbo-0613',
      'claude-opus-4-7',
      'gpt-4-32k',
    ]) {
      expect(priceFor(name), name).toBeUndefined();
    }
  });
});

describe('context window and cost', () => {
  it('prices the counted tokens and the expected output from the table', async () => {
    // "hello world" is 2 tokens on gpt-4o: $2.50 and $10 per million.
    const r = await count({ text: 'hello world', model: 'gpt-4o-2024-08-06', expectedOutputTokens: 1000 });
    expect(r).toMatchObject({
      tokens: 2,
      contextWindow: 128_000,
      fits: true,
      expectedOutputTokens: 1000,
      cost: {
        input: 0.000005,
        output: 0.01,
        total: 0.010005,
        currency: 'USD',
        pricesAsOf: '2024-08-06',
        source: 'https://developers.openai.com/api/docs/models/gpt-4o',
        perMillion: { input: 2.5, output: 10 },
      },
    });
  });

  it('counts expected output against the context window', async () => {
    expect((await count({ text: 'hi', model: 'gpt-4', expectedOutputTokens: 8191 })).fits).toBe(true);
    expect((await count({ text: 'hi', model: 'gpt-4', expectedOutputTokens: 8192 })).fits).toBe(false);
  });

  it('gives a context window without cost for open weights, and neither for an encoding', async () => {
    const llama = await count({ text: 'hi', model: 'llama-3-70b-instruct' });
    expect(llama).toMatchObject({ contextWindow: 8192, fits: true });
    expect(llama.cost).toBeUndefined();
    const encoding = await count({ text: 'hi', model: 'cl100k_base' });
    expect(encoding.contextWindow).toBeUndefined();
    expect(encoding.cost).toBeUndefined();
  });

  it('leaves the output cost out for a model without an output price', async () => {
    const r = await count({ text: 'hi', model: 'text-embedding-3-small', expectedOutputTokens: 5 });
    expect(r.cost).toMatchObject({ input: 0.00000002, total: 0.00000002, perMillion: { output: null } });
    expect(r.cost!.output).toBeUndefined();
  });

  it('rejects a bad expectedOutputTokens with INVALID_INPUT', async () => {
    for (const expectedOutputTokens of [-1, 2.5, 'many', MAX_EXPECTED_OUTPUT + 1]) {
      await expectToolError(
        count({ text: 'x', expectedOutputTokens }),
        'INVALID_INPUT',
        /^expectedOutputTokens must/,
      );
    }
  });
});
