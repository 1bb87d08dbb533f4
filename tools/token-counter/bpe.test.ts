/**
 * Oracle: js-tiktoken's own `encode(text, [], [])` (special tokens as text). Our heap-based
 * encoder must return the very same ids; long pieces are kept to sizes the library's
 * quadratic merge still handles quickly.
 */
import fc from 'fast-check';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import p50k from 'js-tiktoken/ranks/p50k_base';
import r50k from 'js-tiktoken/ranks/r50k_base';
import { describe, expect, it } from 'vitest';
import { buildRankTable, encodeOrdinary, weightedCount } from './bpe.js';

const SAMPLES = [
  '',
  'hello world',
  'The quick brown fox jumps over the lazy dog.',
  "I'm sure they'll say it's FINE, THEY'RE WE'VE he'd",
  '<|endoftext|> and <|fim_prefix|><|endofprompt|>',
  'function add(a, b) {\n  return a + b;\n}\r\n\r\n\t\tx = 12345678901;',
  '  leading and trailing   \n\n\n   ',
  'Ünïcödé façade naïve café Zürich Ελληνικά русский текст',
  '中文字符测试，日本語のテキスト、한국어 텍스트',
  'emoji 😀🦜🫠👩‍👩‍👧‍👦 🇫🇷 and math 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'lone surrogate \ud800 here',
  'https://example.com/path?q=1&r=%20#frag user@example.org',
  '{"key": [1, 2.5e-3, true, null], "nested": {"a": "b"}}',
  'a'.repeat(1200),
  ' '.repeat(1000),
  '\n'.repeat(700),
  '!'.repeat(900),
  'ab'.repeat(500),
  '中'.repeat(300),
  'AbCdEfGhIjKlMnOpQrStUvWxYz'.repeat(30),
  '1234567890'.repeat(50),
];

const ENCODINGS: [string, TiktokenBPE][] = [
  ['o200k_base', o200k],
  ['cl100k_base', cl100k],
  ['p50k_base', p50k],
  ['r50k_base', r50k],
];

describe.each(ENCODINGS)('encodeOrdinary %s', (_name, bpe) => {
  const oracle = new Tiktoken(bpe);
  const table = buildRankTable(bpe.bpe_ranks);
  const ours = (text: string) => encodeOrdinary(text, bpe.pat_str, table);

  it.each(SAMPLES.map((s) => [s.slice(0, 40), s]))('matches js-tiktoken on %j', (_label, text) => {
    expect(ours(text)).toEqual(oracle.encode(text, [], []));
  });

  it('matches js-tiktoken on random strings', () => {
    const text = fc.string({ unit: 'binary', maxLength: 60 });
    fc.assert(
      fc.property(text, (s) => {
        expect(ours(s)).toEqual(oracle.encode(s, [], []));
      }),
      { numRuns: 150, seed: 42 },
    );
  });

  it('matches js-tiktoken on one long random word (the heap merge path)', () => {
    const word = fc.sample(fc.stringMatching(/^[a-z]{800}$/), { numRuns: 1, seed: 7 })[0]!;
    expect(ours(word)).toEqual(oracle.encode(word, [], []));
  });

  it('round-trips: the tokens decode to the input', () => {
    for (const text of SAMPLES) {
      const bytes = ours(text)
        .map((id) => table.tokens[id]!)
        .join('');
      expect(Buffer.from(bytes, 'latin1').toString('utf8')).toBe(text.replace('\ud800', '\ufffd'));
    }
  });
});

describe('buildRankTable', () => {
  it('reads every rank of o200k_base and its longest token', () => {
    const table = buildRankTable(o200k.bpe_ranks);
    expect(table.ranks.size).toBe(199998);
    expect(table.tokens[24912]).toBe('hello');
    expect(table.maxTokenBytes).toBe(128);
  });
});

describe('weightedCount', () => {
  const oracle = new Tiktoken(cl100k);
  const table = buildRankTable(cl100k.bpe_ranks);

  it("sums each piece's js-tiktoken count times its weight, cut by the given pattern", () => {
    // Digits one by one (weight 2), anything else in runs (weight 0.5).
    const split = '\\p{N}|[^\\p{N}]+';
    const weigh = (piece: string) => (/^\d$/.test(piece) ? 2 : 0.5);
    for (const text of SAMPLES) {
      const want = [...text.matchAll(/\p{N}|[^\p{N}]+/gu)].reduce(
        (sum, [piece]) => sum + weigh(piece) * oracle.encode(piece, [], []).length,
        0,
      );
      expect(weightedCount(text, split, table, weigh), text.slice(0, 40)).toBe(want);
    }
  });

  it("equals encodeOrdinary's count with the encoding's own pattern and weight 1", () => {
    for (const text of SAMPLES) {
      expect(weightedCount(text, cl100k.pat_str, table, () => 1)).toBe(
        encodeOrdinary(text, cl100k.pat_str, table).length,
      );
    }
  });
});
