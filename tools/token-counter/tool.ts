import { defineTool } from '#tool-kit';
import { ENCODINGS } from './encoding-names.js';
import { ESTIMATES } from './estimates.js';

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
/** An estimate's bound as the FAQ writes it: 0.17 is "17 %". */
const bound = (family: keyof typeof ESTIMATES) => `${Math.round(ESTIMATES[family].errorBound * 100)} %`;

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
  name: 'Token Counter',
  description:
    "Counts the tokens of a text or a chat message list: exact for OpenAI models (tiktoken encodings), Llama 3 and Mistral 7B v0.1/v0.2 / Mixtral 8x7B, a calibrated estimate with a measured error bound for Claude, Gemini and newer Mistral models; checks a token limit and the model's context window, prices the call from a dated price table, and lists token ids and pieces.",
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
    'llama 3',
    'mistral',
    'mixtral',
    'claude',
    'gemini',
    'chat messages',
    'token cost',
    'pricing',
  ],
  tags: ['llm', 'tokenizer', 'openai', 'llama', 'mistral', 'claude', 'gemini'],
  riskClass: 'L',
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 1048576, timeoutMs: 4000 },
  modes: [...MODES],
  modeField: 'mode',
  fields: { a: 'text', b: 'model', c: 'limit' },
  // A message list is counted, never listed token by token.
  optionModes: { messages: ['count'] },
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
        description:
          'Model name (e.g. gpt-4o, llama-3.1-8b, mistral-7b-v0.1, claude-sonnet-4-5, gemini-2.5-pro) or OpenAI encoding name (e.g. cl100k_base)',
      },
      limit: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_LIMIT,
        description: 'Optional token limit to check the text against',
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
        description:
          'Optional chat messages [{role, content, name?}] (or their JSON text) counted with the chat format; text must then be empty',
      },
      expectedOutputTokens: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_EXPECTED_OUTPUT,
        description: 'Optional expected output tokens: adds the output cost and counts toward fits',
      },
    },
    // Not required: a chat count gives messages alone (the tool asks for one of the two).
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    text: `Text to tokenize, up to ${n(MAX_TEXT_CHARS)} Unicode code points (empty or left out when messages is given; required otherwise); special-token strings such as <|endoftext|> or <|eot_id|> count as plain text`,
    model:
      'Model or encoding name, case-insensitive, as its vendor writes it: an id or a documented alias such as gpt-4o-2024-08-06 (default gpt-4o, i.e. o200k_base). Exact: OpenAI (gpt-5, gpt-4.1, gpt-4o, o1, o3, o4-mini, gpt-4-turbo, gpt-4, gpt-3.5-turbo, text-embedding, gpt-oss (o200k_harmony counts as o200k_base), legacy GPT-3, ft: fine-tunes; encodings o200k_base, cl100k_base, p50k_base, p50k_edit, r50k_base), Llama 3.x (llama-3.1-8b, meta-llama/Llama-3.1-8B-Instruct, llama3.1:8b), Mistral 7B v0.1/v0.2 and Mixtral 8x7B. Estimated (exact false, with a measured error bound): Claude, Gemini, Mistral 7B v0.3, Mixtral 8x22B, NeMo, Large, Small, Codestral. Any other name, an invented dated one included: UNSUPPORTED_OPTION naming the nearest known names',
    limit: `Optional token limit (integer 0..${n(MAX_LIMIT)}): the result then has withinLimit (tokens <= limit) and remaining (limit - tokens, negative when over)`,
    mode: `count (default): the token count only; tokens: also the ids and the text piece of each token (first ${n(MAX_LISTED)}; exact tokenizers and text only)`,
    messages: `Optional chat messages, an array (or its JSON text) of at most ${n(MAX_MESSAGES)} {role, content, name?} (role and name 1..64 characters): counted with the chat format, OpenAI cookbook rule (3 per message + 1 per name + 3 reply priming) or Llama 3's chat template token for token; other families refuse it. text must then be empty or left out`,
    expectedOutputTokens: `Optional expected output tokens (0..${n(MAX_EXPECTED_OUTPUT)}): cost then adds the output price, and fits counts them against the context window`,
  },
  endpoints: [
    {
      path: '/api/token-counter/',
      methods: ['GET', 'POST'],
      summary:
        'Count the tokens of a text or chat messages for an OpenAI, Llama 3, Mistral, Claude or Gemini model',
    },
  ],
  faqs: [
    {
      question: 'Which tokenizers are used?',
      answer:
        "OpenAI: the tiktoken rank files shipped by js-tiktoken (o200k_base, cl100k_base, p50k_base, r50k_base), counts match tiktoken. Llama 3.x: llama3-tokenizer-js (Meta's tokenizer). Mistral 7B v0.1/v0.2 and Mixtral 8x7B: mistral-tokenizer-js (the v1 SentencePiece tokenizer, with its leading space). Everything runs locally; results say exact: true.",
    },
    {
      question: 'How exact are Claude, Gemini and newer Mistral counts?',
      answer: `They are estimates (exact: false): the text is cut the way the reference tokenizer cuts it (digits one by one for Gemini and Tekken), a proxy tokenizer counts the pieces, and weights calibrated on a corpus the tool ships (prose, code, JSON, URLs, digit and whitespace runs, base64, non-Latin and mixed scripts, emoji) scale them. The answer's estimate object gives the method, the reference the bound was measured against and the largest error on that corpus (Claude ${bound('claude')} against Anthropic's legacy tokenizer, Gemini ${bound('gemini')} against the Gemma tokenizer, Tekken models ${bound('mistral-tekken')}, Mistral v0.3-era models ${bound('mistral-v3')}) with a low..high range. Claude 3 and later have no public tokenizer: for billing-exact counts use the vendor's token-counting API.`,
    },
    {
      question: 'Does it count chat messages?',
      answer:
        "Yes, with messages instead of text: OpenAI chat models by the OpenAI cookbook's rule (3 tokens per message, 1 per name, 3 priming the reply; 129 tokens for the cookbook's example on gpt-4), Llama 3 by Meta's chat template token for token. chatFormat in the answer names the rule. Other families have no published rule and refuse messages.",
    },
    {
      question: 'Where do context windows and prices come from?',
      answer:
        'From one dated table in the tool (prices.json): for each model its id, the aliases its vendor documents (dated snapshots such as gpt-4o-2024-08-06, -latest names, Hugging Face and Ollama names), context window, input and output USD per million tokens, the date and the vendor page. A name finds its entry only as its id or a documented alias, never by a prefix: gpt-4-1106-preview is GPT-4 Turbo (128,000 tokens, $10/$30), not GPT-4. cost gives the input cost (and the output cost with expectedOutputTokens), pricesAsOf and source; prices change, so check the source before relying on them.',
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
        'Set `model` (`b`) to a model such as gpt-4, llama-3.1-8b or claude-sonnet-4-5, or an encoding such as cl100k_base; default gpt-4o.',
    },
    {
      title: 'Count a conversation',
      description:
        'Leave `text` empty and pass `messages` [{role, content}] to include the chat-format tokens.',
    },
    {
      title: 'Check the context window and cost',
      description: 'Read `contextWindow`, `fits` and `cost`; add `expectedOutputTokens` for the output cost.',
    },
    { title: 'Check a limit', description: 'Set `limit` (`c`) to get `withinLimit` and `remaining`.' },
    { title: 'See the tokens', description: 'Set `mode` to tokens to list `ids` and `pieces`.' },
  ],
  relatedTools: ['structured-output-validator', 'schema-generator', 'format-detective'],
  deterministic: true,
  jsonText: ['messages'],
});
