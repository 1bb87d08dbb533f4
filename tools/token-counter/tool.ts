import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['count', 'tokens'] as const;
/** Longest text, in Unicode code points (ajv's maxLength counts them the same way). */
export const MAX_TEXT_CHARS = 1_048_576;
export const MAX_MODEL_CHARS = 100;
export const DEFAULT_MODEL = 'gpt-4o';
export const MAX_LIMIT = 10_000_000;
/** At most this many ids/pieces are listed in tokens mode; the count always covers the whole text. */
export const MAX_LISTED = 10_000;
/**
 * A number as the descriptions write it: 1,048,576. Not toLocaleString: its first call loads
 * ICU's locale data, ~20 ms of every boot (the API process imports this definition).
 */
const n = (value: number) => String(value).replace(/\B(?=(\d{3})+$)/g, ',');

/** Encodings a result names (encodings.ts ENCODINGS; test/output-schemas.test.ts checks they agree). */
const ENCODING_NAMES = ['o200k_base', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'];

/** The result of both modes (MCP outputSchema); tokens mode adds ids, pieces and truncated. */
const OUTPUT = {
  type: 'object',
  properties: {
    tokens: { type: 'integer', minimum: 0, description: 'Number of tokens of the whole text' },
    encoding: { type: 'string', enum: ENCODING_NAMES, description: 'BPE encoding used' },
    model: {
      type: 'string',
      description: 'The model recognised (lower-cased); absent when an encoding was given',
    },
    characters: { type: 'integer', minimum: 0, description: 'Unicode code points of the text' },
    bytes: { type: 'integer', minimum: 0, description: 'UTF-8 bytes of the text' },
    limit: { type: 'integer', minimum: 0, description: 'The limit given (only with limit)' },
    withinLimit: { type: 'boolean', description: 'tokens <= limit (only with limit)' },
    remaining: { type: 'integer', description: 'limit - tokens, negative when over (only with limit)' },
    ids: {
      type: 'array',
      maxItems: MAX_LISTED,
      items: { type: 'integer', minimum: 0 },
      description: `tokens mode: token ids, the first ${n(MAX_LISTED)}`,
    },
    pieces: {
      type: 'array',
      maxItems: MAX_LISTED,
      items: { type: 'string' },
      description: 'tokens mode: the text of each listed token (bytes that are not whole UTF-8 are escaped)',
    },
    truncated: { type: 'boolean', description: 'tokens mode: true when more tokens exist than are listed' },
  },
  required: ['tokens', 'encoding', 'characters', 'bytes'],
  additionalProperties: false,
};

export default defineTool({
  id: 'token-counter',
  name: 'Token Counter',
  description:
    'Counts the tokens of a text with the exact BPE tokenizers of OpenAI models (o200k_base, cl100k_base, p50k_base, r50k_base), checks it against a token limit, and lists the token ids and pieces.',
  category: 'ai',
  icon: 'hash',
  keywords: [
    'token',
    'tokens',
    'tiktoken',
    'tokenizer',
    'bpe',
    'gpt-4o',
    'gpt-4',
    'context window',
    'prompt length',
    'o200k_base',
    'cl100k_base',
  ],
  tags: ['llm', 'tokenizer', 'openai'],
  riskClass: 'L',
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 1048576, timeoutMs: 4000 },
  modes: [...MODES],
  modeField: 'mode',
  fields: { a: 'text', b: 'model', c: 'limit' },
  input: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        maxLength: MAX_TEXT_CHARS,
        description: 'The text to tokenize (may be empty)',
      },
      model: {
        type: 'string',
        maxLength: MAX_MODEL_CHARS,
        default: DEFAULT_MODEL,
        description: 'Model name (e.g. gpt-4o, gpt-4, text-davinci-003) or encoding name (e.g. cl100k_base)',
      },
      limit: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_LIMIT,
        description: 'Optional token limit to check the text against',
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    text: `Text to tokenize, up to ${n(MAX_TEXT_CHARS)} Unicode code points; special-token strings such as <|endoftext|> count as plain text`,
    model:
      'Model or encoding name, case-insensitive (default gpt-4o, i.e. o200k_base). Encodings: o200k_base, cl100k_base, p50k_base, p50k_edit, r50k_base. Models include the gpt-5, gpt-4.1, gpt-4o, o1, o3, o4-mini, gpt-4, gpt-3.5-turbo and text-embedding families and the legacy GPT-3 models; dated variants resolve by prefix',
    limit: `Optional token limit (integer 0..${n(MAX_LIMIT)}): the result then has withinLimit (tokens <= limit) and remaining (limit - tokens, negative when over)`,
    mode: `count (default): the token count only; tokens: also the ids and the text piece of each token (first ${n(MAX_LISTED)})`,
  },
  endpoints: [
    {
      path: '/api/token-counter/',
      methods: ['GET', 'POST'],
      summary: 'Count the tokens of a text for an OpenAI model or encoding',
    },
  ],
  faqs: [
    {
      question: 'Which tokenizers are used?',
      answer:
        'The BPE rank files of OpenAI tiktoken as shipped by js-tiktoken, run locally: o200k_base (gpt-4o, gpt-4.1, gpt-5, o-series), cl100k_base (gpt-4, gpt-3.5-turbo, embeddings), p50k_base and r50k_base (legacy GPT-3). Counts match tiktoken. Chat APIs add a few tokens per message for roles and formatting, which this count does not include.',
    },
    {
      question: 'How are special tokens like <|endoftext|> handled?',
      answer:
        'As plain text: they are split like any other characters (tiktoken encode with allowed_special and disallowed_special empty), so user text can never inject a control token and never causes an error.',
    },
    {
      question: 'Why do some pieces look like \\xF0\\x9F?',
      answer:
        'A token can hold part of a multi-byte UTF-8 character (emoji and rare characters often span several tokens). Such bytes are shown as \\xHH escapes; complete characters are shown as text. `characters` counts Unicode code points and `bytes` counts UTF-8 bytes.',
    },
  ],
  howTo: [
    { title: 'Paste the text', description: 'Pass the text as `text` (generic: `a`).' },
    {
      title: 'Pick the model',
      description:
        'Set `model` (`b`) to a model such as gpt-4 or an encoding such as cl100k_base; default gpt-4o.',
    },
    { title: 'Check a limit', description: 'Set `limit` (`c`) to get `withinLimit` and `remaining`.' },
    { title: 'See the tokens', description: 'Set `mode` to tokens to list `ids` and `pieces`.' },
  ],
  relatedTools: ['structured-output-validator', 'schema-generator', 'format-detective'],
  deterministic: true,
});
