/**
 * Llama 3 and Mistral v1 counts against published vectors (the tokenizers' own test suites,
 * vectors.json) and against the libraries' own encoders as independent implementations
 * (this tool runs Llama 3 through its tiktoken-style BPE and Mistral through symbol-bpe.ts).
 */
import { readFileSync } from 'node:fs';
import llama3Tokenizer from 'llama3-tokenizer-js';
import mistralTokenizer from 'mistral-tokenizer-js';
import { describe, expect, it } from 'vitest';
import { declaredCases, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const call = toolRunner(tool, run);
const here = new URL('.', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('vectors.json', here), 'utf8')) as {
  llama3: { text: string; ids: number[] }[];
  mistral: { text: string; ids: number[] }[];
};
const corpus = JSON.parse(readFileSync(new URL('corpus.json', here), 'utf8')) as {
  samples: { id: string; text: string }[];
};

/** Texts the tokenizers find hard: long runs, mixed scripts, whitespace, byte fallback. */
const HARD = [
  '',
  ' ',
  '   leading and trailing   ',
  'a'.repeat(5_000),
  'x '.repeat(2_000),
  '\n\n\t\t  \r\n code\n',
  "don't WON'T we'LL I'd",
  '1234567890 3.14159 1,000,000',
  '🦙🦙 👩‍👩‍👧‍👦 🇵🇹 Ꙋ 镇 ∑∫√ ﬁ',
  'ⅫⅣ ℌ ｆｕｌｌｗｉｄｔｈ',
  '<|eot_id|> [INST] <s> </s>',
  'a\u2581 b \u2581\u2581 c\u2581\u2581d',
];

const llamaOracle = (text: string) =>
  llama3Tokenizer.encode(text, { bos: false, eos: false, specialTokenRegex: /(?!)/g } as never);
const mistralOracle = (text: string) => mistralTokenizer.encode(text, false, true);

describe('Llama 3 (exact)', () => {
  it('gives the published ids of llama3-tokenizer-js test suite', async () => {
    for (const { text, ids } of vectors.llama3) {
      const r = await call({ text, model: 'llama-3-8b' }, 'tokens');
      expect(r.ids, text.slice(0, 40)).toEqual(ids);
      expect(r.tokens).toBe(ids.length);
      expect(r).toMatchObject({ encoding: 'llama3', family: 'llama3', exact: true });
    }
    expect(vectors.llama3.length).toBe(declaredCases(import.meta.url, 'llama3-tokenizer-js test vectors'));
  });

  it('matches llama3-tokenizer-js encode on the corpus and hard texts', async () => {
    const texts = [...corpus.samples.map((s) => s.text), ...HARD];
    for (const text of texts) {
      expect((await call({ text, model: 'llama-3.1-70b' }, 'tokens')).ids, text.slice(0, 40)).toEqual(
        llamaOracle(text),
      );
    }
    expect(texts.length).toBe(declaredCases(import.meta.url, 'llama3-tokenizer-js encode'));
  });

  it('reads Llama 3.x names (Hugging Face, Ollama) and special tokens as text', async () => {
    for (const model of [
      'Meta-Llama-3-8B-Instruct',
      'meta-llama/Llama-3.2-3B',
      'llama3.1:8b',
      'llama-3.3-70b',
    ]) {
      expect((await call({ text: 'hi', model }, 'count')).family).toBe('llama3');
    }
    const r = await call({ text: '<|eot_id|>', model: 'llama-3-8b' }, 'tokens');
    expect(r.ids).not.toContain(128009);
    expect(r.pieces!.join('')).toBe('<|eot_id|>');
  });
});

describe('Mistral v1 (exact)', () => {
  it('gives the published ids of mistral-tokenizer-js test suite (without its BOS)', async () => {
    for (const { text, ids } of vectors.mistral) {
      expect(ids[0]).toBe(1);
      const r = await call({ text, model: 'mistral-7b-v0.1' }, 'tokens');
      expect(r.ids, text.slice(0, 40)).toEqual(ids.slice(1));
      expect(r).toMatchObject({ encoding: 'mistral-v1', family: 'mistral', exact: true });
    }
    expect(vectors.mistral.length).toBe(declaredCases(import.meta.url, 'mistral-tokenizer-js test vectors'));
  });

  it('matches mistral-tokenizer-js encode on the corpus and hard texts', async () => {
    const texts = [...corpus.samples.map((s) => s.text), ...HARD];
    for (const text of texts) {
      expect((await call({ text, model: 'mixtral-8x7b' }, 'tokens')).ids, text.slice(0, 40)).toEqual(
        text === '' ? [] : mistralOracle(text),
      );
    }
    expect(texts.length).toBe(declaredCases(import.meta.url, 'mistral-tokenizer-js encode'));
  });

  it('shows the leading space SentencePiece adds, and byte-fallback pieces', async () => {
    const r = await call({ text: 'Hello 🦙', model: 'mistral-7b-instruct-v0.2' }, 'tokens');
    expect(r.pieces).toEqual([' Hello', ' ', '\\xF0', '\\x9F', '\\xA6', '\\x99']);
  });
});

describe('both against their library on generated texts', () => {
  // Deterministic pseudo-random texts over an alphabet of the hard cases (spaces, U+2581,
  // newlines, digits, apostrophes, accents, CJK, emoji, characters outside the vocabularies).
  const ALPHABET = [
    ...' ',
    ' ',
    ' ',
    '\u2581',
    '\n',
    '\t',
    'a',
    'b',
    'e',
    'n',
    'T',
    "'",
    's',
    '1',
    '9',
    '.',
    ',',
    'é',
    '中',
    '文',
    '🦙',
    'Ꙋ',
    '#',
    '<',
    '|',
  ];
  let seed = 25;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const texts = Array.from({ length: 150 }, () =>
    Array.from(
      { length: 1 + Math.floor(next() * 60) },
      () => ALPHABET[Math.floor(next() * ALPHABET.length)],
    ).join(''),
  );

  it('Llama 3 and Mistral v1 ids equal the libraries on 150 generated texts', async () => {
    for (const text of texts) {
      expect((await call({ text, model: 'llama-3-8b' }, 'tokens')).ids, JSON.stringify(text)).toEqual(
        llamaOracle(text),
      );
      expect((await call({ text, model: 'mistral-7b-v0.1' }, 'tokens')).ids, JSON.stringify(text)).toEqual(
        mistralOracle(text),
      );
    }
  });
});
