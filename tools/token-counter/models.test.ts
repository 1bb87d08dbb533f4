/**
 * How a model name is resolved (families.ts, prices.ts): by its exact id or a documented
 * alias in the model table, or as an OpenAI name tiktoken knows; anything else is refused
 * with the nearest known names, never answered with another model's window and prices.
 */
import { readFileSync } from 'node:fs';
import { getEncodingNameForModel, type TiktokenModel } from 'js-tiktoken/lite';
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import { PRICES, type PriceEntry } from './prices.js';
import run from './run.js';
import tool from './tool.js';

const call = toolRunner(tool, run);
const count = (input: Record<string, unknown>) => call(input, 'count');
const unsupportedMessage = async (model: string) =>
  (await expectToolError(count({ text: 'x', model }), 'UNSUPPORTED_OPTION')).message;

describe('GPT-4 Turbo and gpt-3.5-turbo-instruct (issue 37)', () => {
  it.each([
    ['gpt-4-1106-preview', '2023-11-06'],
    ['gpt-4-0125-preview', '2024-01-25'],
    ['gpt-4-turbo-preview', '2024-01-25'],
    ['gpt-4-1106-vision-preview', '2023-11-06'],
    ['gpt-4-vision-preview', '2023-11-06'],
    ['gpt-4-turbo-2024-04-09', '2024-04-09'],
  ])('%s is GPT-4 Turbo: 128,000 tokens at 10 and 30 USD per million, not GPT-4', async (model, date) => {
    // "hello world" is 2 cl100k_base tokens: 2 x $10 per million in, 1000 x $30 per million out.
    const r = await count({ text: 'hello world', model, expectedOutputTokens: 1000 });
    expect(r).toMatchObject({
      tokens: 2,
      encoding: 'cl100k_base',
      contextWindow: 128_000,
      fits: true,
      cost: { input: 0.00002, output: 0.03, perMillion: { input: 10, output: 30 }, pricesAsOf: date },
    });
    // 9,000 tokens fit its window; GPT-4's 8,192 would not have held them.
    expect((await count({ text: 'hi', model, expectedOutputTokens: 9000 })).fits).toBe(true);
  });

  it('gpt-3.5-turbo-instruct has its own 4,096-token window and $1.50/$2 prices', async () => {
    for (const model of ['gpt-3.5-turbo-instruct', 'gpt-3.5-turbo-instruct-0914']) {
      const r = await count({ text: 'hello world', model, expectedOutputTokens: 1000 });
      expect(r).toMatchObject({
        encoding: 'cl100k_base',
        contextWindow: 4096,
        cost: { perMillion: { input: 1.5, output: 2 }, output: 0.002 },
      });
      // "hi" is 1 token: 4,095 more fit in 4,096, 4,096 more do not (gpt-3.5-turbo has 16,385).
      expect((await count({ text: 'hi', model, expectedOutputTokens: 4095 })).fits).toBe(true);
      expect((await count({ text: 'hi', model, expectedOutputTokens: 4096 })).fits).toBe(false);
    }
  });
});

describe('documented aliases', () => {
  it.each([
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['gpt-4o-2024-11-20', 'gpt-4o'],
    ['gpt-4-0613', 'gpt-4'],
    ['gpt-3.5-turbo-0125', 'gpt-3.5-turbo'],
    ['o3-2025-04-16', 'o3'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet-latest'],
    ['gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ['models/gemini-2.5-pro', 'gemini-2.5-pro'],
    ['meta-llama/Llama-3.1-8B-Instruct', 'llama-3.1-8b'],
    ['Meta-Llama-3-70B-Instruct', 'llama-3-70b'],
    ['llama3.2:3b', 'llama-3.2-3b'],
    ['mistralai/Mixtral-8x7B-Instruct-v0.1', 'mixtral-8x7b'],
  ])('%s answers with the figures of %s', async (model, id) => {
    const entry = PRICES.find((e) => e.id === id)!;
    const r = await count({ text: 'hi', model });
    expect(r.model).toBe(model.toLowerCase());
    expect(r.contextWindow).toBe(entry.contextWindow);
    expect(r.cost?.perMillion.input ?? null).toBe(entry.input);
    expect(r.cost?.pricesAsOf).toBe(entry.input === null ? undefined : entry.pricesAsOf);
  });

  it('gives a snapshot priced apart its own entry (gpt-4o-2024-05-13 at $5/$15)', async () => {
    const r = await count({ text: 'hi', model: 'gpt-4o-2024-05-13' });
    expect(r.cost?.perMillion).toEqual({ input: 5, output: 15 });
  });

  it('answers every id and alias of the table with its own entry', async () => {
    for (const entry of PRICES) {
      for (const name of [entry.id, ...(entry.aliases ?? [])]) {
        const r = await count({ text: 'hi', model: name });
        expect(r.contextWindow, name).toBe(entry.contextWindow);
        expect(r.cost?.perMillion.output ?? null, name).toBe(entry.input === null ? null : entry.output);
      }
    }
  });

  it('counts each OpenAI entry with the encoding tiktoken gives its names', () => {
    let checked = 0;
    for (const entry of PRICES) {
      for (const name of [entry.id, ...(entry.aliases ?? [])]) {
        let known: string | undefined;
        try {
          known = getEncodingNameForModel(name as TiktokenModel);
        } catch {
          continue; // a name js-tiktoken 1.0.21 does not know (gpt-4-1106-vision-preview)
        }
        expect(entry.tokenizer, name).toBe(known);
        checked++;
      }
    }
    expect(checked).toBe(declaredCases(import.meta.url, 'js-tiktoken getEncodingNameForModel'));
  });
});

describe('names without an entry', () => {
  it('counts an OpenAI name tiktoken knows, with no window or price it cannot vouch for', async () => {
    for (const model of [
      'gpt-3.5-turbo-0613',
      'gpt-4-32k',
      'text-davinci-003',
      'ft:gpt-4o-mini-2024-07-18:acme:x:abc1',
    ]) {
      const r = await count({ text: 'hello world', model });
      expect(r.exact, model).toBe(true);
      expect(r.contextWindow, model).toBeUndefined();
      expect(r.cost, model).toBeUndefined();
    }
  });

  it.each([
    ['gpt-4-0409', ['gpt-4-0314', 'gpt-4-0613']],
    ['gpt-4o-2031-02-02', ['gpt-4o']],
    ['gpt-4.1-nano-2030-01-01', ['gpt-4.1-nano']],
    ['claude-sonnet-4', ['claude-sonnet-4-0', 'claude-sonnet-4-5']],
    ['claude-3-haiku', ['claude-3-haiku-20240307']],
    ['llama-3', ['llama-3-8b', 'llama3']],
    ['gemini-2.5-pro-latest', ['gemini-2.5-pro']],
  ])('refuses %s with UNSUPPORTED_OPTION naming the nearest known names', async (model, near) => {
    const message = await unsupportedMessage(model);
    const nearest = /; nearest: ([^;]+);/.exec(message)?.[1]?.split(', ') ?? [];
    expect(nearest).toEqual(expect.arrayContaining(near));
    expect(nearest.length).toBeLessThanOrEqual(5);
  });

  it("refuses a vendor prefix on another vendor's model, an undocumented name behind its prefix, a fine-tune of an unknown base", async () => {
    for (const model of [
      'models/llama-3-8b',
      'meta-llama/gemini-2.5-pro',
      'mistralai/llama-3-8b',
      'meta-llama/llama-3-8b-turbo-9000',
      'ft:gpt-9:acme::x',
    ]) {
      expect(await unsupportedMessage(model)).toContain(`'${model}'`);
    }
  });

  it('keeps the UNSUPPORTED_OPTION message bounded for a name far from every known one', async () => {
    const message = await unsupportedMessage('zz'.repeat(50));
    expect(message).toContain("names are exact: a model's id or an alias its vendor documents");
    expect(message).not.toContain('nearest');
    expect(message.length).toBeLessThan(1_200);
  });
});

describe("SKILL.md's model table", () => {
  it('lists every entry of prices.json with its figures, date and source', () => {
    const skill = readFileSync(new URL('SKILL.md', import.meta.url), 'utf8');
    const rows = skill
      .slice(skill.indexOf('<!-- model-table -->'), skill.indexOf('<!-- /model-table -->'))
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const cell = (value: number | null) => (value === null ? '-' : String(value));
    const row = (e: PriceEntry) =>
      `| \`${e.id}\` | ${(e.aliases ?? []).map((a) => `\`${a}\``).join(', ') || '-'} | ${e.tokenizer} | ${e.contextWindow} | ${cell(e.input)} | ${cell(e.output)} | ${e.pricesAsOf} | ${e.source} |`;
    expect(rows).toEqual(PRICES.map(row));
  });
});
