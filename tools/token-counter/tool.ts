import { defineTool } from '#tool-kit';
import { ENCODINGS } from './encoding-names.js';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['count', 'tokens'] as const;
/** Longest text, in Unicode code points (ajv's maxLength counts them the same way). */
export const MAX_TEXT_CHARS = 1_048_576;
export const MAX_MODEL_CHARS = 100;
export const DEFAULT_MODEL = 'gpt-4o';
export const MAX_LIMIT = 10_000_000;
/** At most this many ids/pieces are listed in tokens mode; the count always covers the whole text. */
export const MAX_LISTED = 10_000;
export const MAX_MESSAGES = 1_000;
export const MAX_EXPECTED_OUTPUT = 10_000_000;
/**
 * A number as the descriptions write it: 1,048,576. Not toLocaleString: its first call loads
 * ICU's locale data, ~20 ms of every boot (the API process imports this definition).
 */
const n = (value: number) => String(value).replace(/\B(?=(\d{3})+$)/g, ',');

const FAMILIES = ['openai', 'llama3', 'mistral', 'claude', 'gemini'];

/** The result of both modes (MCP outputSchema); tokens mode adds ids, pieces and truncated. */
const OUTPUT = {
  type: 'object',
  properties: {
    tokens: {
      type: 'integer',
      minimum: 0,
      description:
        'Number of tokens of the whole text (or of the messages with their chat format); an estimate when exact is false',
    },
    encoding: {
      type: 'string',
      enum: [...ENCODINGS],
      description: "Tokenizer that counted: the model's own, or the proxy an estimate scales",
    },
    family: { type: 'string', enum: FAMILIES, description: 'Model family' },
    exact: {
      type: 'boolean',
      description: "true: the model's own tokenizer counted; false: an estimate (see estimate)",
    },
    estimate: {
      type: 'object',
      description: 'Only when exact is false: how the count was estimated and its measured error bound',
      properties: {
        method: { type: 'string' },
        reference: { type: 'string', description: 'What the bound was measured against' },
        errorBound: {
          type: 'number',
          minimum: 0,
          description: 'Largest relative error measured on the shipped corpus (0.11 = 11 %)',
        },
        low: { type: 'integer', minimum: 0, description: 'tokens / (1 + errorBound), rounded down' },
        high: { type: 'integer', minimum: 0, description: 'tokens / (1 - errorBound), rounded up' },
      },
      required: ['method', 'reference', 'errorBound', 'low', 'high'],
      additionalProperties: false,
    },
    chatFormat: {
      type: 'object',
      description: 'Only with messages: the chat-format rule applied',
      properties: {
        rule: { type: 'string', enum: ['openai-cookbook', 'llama3-chat-template'] },
        messages: { type: 'integer', minimum: 1 },
        overheadTokens: {
          type: 'integer',
          minimum: 0,
          description: 'tokens minus the tokens of the contents',
        },
      },
      required: ['rule', 'messages', 'overheadTokens'],
      additionalProperties: false,
    },
    contextWindow: { type: 'integer', minimum: 0, description: "The model's context window (known models)" },
    fits: {
      type: 'boolean',
      description: 'tokens + expectedOutputTokens <= contextWindow (only with contextWindow)',
    },
    expectedOutputTokens: { type: 'integer', minimum: 0, description: 'The expected output tokens given' },
    cost: {
      type: 'object',
      description: 'List-price cost in USD from the dated price table (priced models only)',
      properties: {
        input: { type: 'number', minimum: 0, description: 'USD for the counted tokens' },
        output: { type: 'number', minimum: 0, description: 'USD for expectedOutputTokens (when given)' },
        total: { type: 'number', minimum: 0 },
        currency: { type: 'string', enum: ['USD'] },
        pricesAsOf: { type: 'string', description: 'Date of the prices (YYYY-MM-DD)' },
        source: { type: 'string', description: 'Where the prices come from' },
        perMillion: {
          type: 'object',
          properties: {
            input: { type: 'number', minimum: 0 },
            output: { type: ['number', 'null'], minimum: 0 },
          },
          required: ['input', 'output'],
          additionalProperties: false,
        },
      },
      required: ['input', 'total', 'currency', 'pricesAsOf', 'source', 'perMillion'],
      additionalProperties: false,
    },
    model: {
      type: 'string',
      description: 'The model recognised (lower-cased); absent when an encoding was given',
    },
    characters: {
      type: 'integer',
      minimum: 0,
      description: 'Unicode code points of the text (with messages: of the contents)',
    },
    bytes: {
      type: 'integer',
      minimum: 0,
      description: 'UTF-8 bytes of the text (with messages: of the contents)',
    },
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
  required: ['tokens', 'encoding', 'family', 'exact', 'characters', 'bytes'],
  additionalProperties: false,
};

export default defineTool({
  id: 'token-counter',
  title: 'Token Counter',
  description:
    "Counts the tokens of a text or a chat message list: exact for OpenAI models (tiktoken encodings), Llama 3 and Mistral 7B v0.1/v0.2 / Mixtral 8x7B, a calibrated estimate with a measured error bound for Claude, Gemini and newer Mistral models; checks a token limit and the model's context window, prices the call from a dated price table, and lists token ids and pieces.",
  input: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        maxLength: MAX_TEXT_CHARS,
        description: `Text to tokenize, up to ${n(MAX_TEXT_CHARS)} Unicode code points (empty or left out when messages is given; required otherwise); special-token strings such as <|endoftext|> or <|eot_id|> count as plain text`,
      },
      model: {
        type: 'string',
        maxLength: MAX_MODEL_CHARS,
        default: DEFAULT_MODEL,
        description:
          'Model or encoding name, case-insensitive, as its vendor writes it: an id or a documented alias such as gpt-4o-2024-08-06 (default gpt-4o, i.e. o200k_base). Exact: OpenAI (gpt-5, gpt-4.1, gpt-4o, o1, o3, o4-mini, gpt-4-turbo, gpt-4, gpt-3.5-turbo, text-embedding, gpt-oss (o200k_harmony counts as o200k_base), legacy GPT-3, ft: fine-tunes; encodings o200k_base, cl100k_base, p50k_base, p50k_edit, r50k_base), Llama 3.x (llama-3.1-8b, meta-llama/Llama-3.1-8B-Instruct, llama3.1:8b), Mistral 7B v0.1/v0.2 and Mixtral 8x7B. Estimated (exact false, with a measured error bound): Claude, Gemini, Mistral 7B v0.3, Mixtral 8x22B, NeMo, Large, Small, Codestral. Any other name, an invented dated one included: UNSUPPORTED_OPTION naming the nearest known names',
      },
      limit: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_LIMIT,
        description: `Optional token limit (integer 0..${n(MAX_LIMIT)}): the result then has withinLimit (tokens <= limit) and remaining (limit - tokens, negative when over)`,
      },
      messages: {
        type: ['array', 'string'],
        maxItems: MAX_MESSAGES,
        maxLength: MAX_TEXT_CHARS,
        items: {
          type: 'object',
          properties: {
            role: { type: 'string', minLength: 1, maxLength: 64 },
            content: { type: 'string' },
            name: { type: 'string', minLength: 1, maxLength: 64 },
          },
          required: ['role', 'content'],
          additionalProperties: false,
        },
        description: `Optional chat messages, an array (or its JSON text) of at most ${n(MAX_MESSAGES)} {role, content, name?} (role and name 1..64 characters): counted with the chat format, OpenAI cookbook rule (3 per message + 1 per name + 3 reply priming) or Llama 3's chat template token for token; other families refuse it. text must then be empty or left out`,
      },
      expectedOutputTokens: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_EXPECTED_OUTPUT,
        description: `Optional expected output tokens (0..${n(MAX_EXPECTED_OUTPUT)}): cost then adds the output price, and fits counts them against the context window`,
      },
    },
    // Not required: a chat count gives messages alone (the tool asks for one of the two).
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { inputMaxBytes: 1048576, timeoutMs: 4000 },
  modes: {
    description: `count (default): the token count only; tokens: also the ids and the text piece of each token (first ${n(MAX_LISTED)}; exact tokenizers and text only)`,
    each: { count: { options: ['messages'] }, tokens: {} },
  },
  slots: { a: 'text', b: 'model', c: 'limit' },
  deterministic: true,
  jsonText: ['messages'],
});
