import { quote, type ToolInput, ToolInputError } from '#tool-kit';
import { countMessages, parseMessages } from './chat.js';
import type { EncodingName } from './encoding-names.js';
import { type Encoder, loadTiktoken } from './encodings.js';
import { type EstimateReport, estimateReport, estimateTokens } from './estimates.js';
import { type Family, type ResolvedModel, resolveModel } from './families.js';
import { loadLlama3, loadMistral } from './open-weights.js';
import { pieceText } from './pieces.js';
import { DEFAULT_MODEL, MAX_LISTED } from './tool.js';

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export interface Cost {
  /** USD for the counted (input) tokens. */
  input: number;
  /** USD for expectedOutputTokens (only when given and the model has an output price). */
  output?: number;
  total: number;
  currency: 'USD';
  pricesAsOf: string;
  source: string;
  perMillion: { input: number; output: number | null };
}

export interface TokenCountResult {
  tokens: number;
  encoding: string;
  model?: string;
  family: Family;
  /** true: the model's own tokenizer counted; false: an estimate (see `estimate`). */
  exact: boolean;
  estimate?: EstimateReport;
  /** Unicode code points (not UTF-16 units); with messages, of the contents. */
  characters: number;
  /** UTF-8 bytes. */
  bytes: number;
  chatFormat?: { rule: string; messages: number; overheadTokens: number };
  limit?: number;
  withinLimit?: boolean;
  /** limit - tokens; negative when the text is over the limit. */
  remaining?: number;
  contextWindow?: number;
  fits?: boolean;
  expectedOutputTokens?: number;
  cost?: Cost;
  ids?: number[];
  pieces?: string[];
  truncated?: boolean;
}

function loadEncoder(encoding: EncodingName): Promise<Encoder> {
  if (encoding === 'llama3') return loadLlama3();
  if (encoding === 'mistral-v1') return loadMistral();
  return loadTiktoken(encoding);
}

/**
 * Builds the tokenizer this input's model needs before the run starts (a rank table or an
 * open-weight vocabulary, 0.1-0.5 s on a worker's first use, seconds on a loaded machine):
 * the worker runs it outside the run's deadline, so a cold worker never turns a good count
 * into a TIMEOUT. An unknown model loads nothing; the run then refuses it.
 */
export async function prepare(input: ToolInput): Promise<void> {
  let resolved: ResolvedModel;
  try {
    resolved = resolveModel((input.model as string) || DEFAULT_MODEL);
  } catch {
    return;
  }
  await loadEncoder(resolved.encoding);
}

const usd = (value: number) => Math.round(value * 1e8) / 1e8;

/** Input as the schema in tool.ts passed it: text within its length, limit an integer in range. */
export default async function run(input: ToolInput, mode: string): Promise<TokenCountResult> {
  const text = (input.text as string | undefined) ?? '';
  const limit = input.limit as number | undefined;
  const expectedOutputTokens = input.expectedOutputTokens as number | undefined;
  // An empty model (`?b=`) is text, so the schema's default does not fill it: it means the default.
  const resolved = resolveModel((input.model as string) || DEFAULT_MODEL);
  const { encoding, model, estimate, family } = resolved;
  const messages = parseMessages(input.messages);

  if (mode === 'tokens' && estimate) {
    throw new ToolInputError(
      `mode tokens lists the ids of an exact tokenizer; ${quote(model ?? encoding)} is counted by an estimate: use mode count`,
      'UNSUPPORTED_OPTION',
    );
  }
  if (!messages && input.text === undefined)
    throw new ToolInputError('text is required (or messages, to count a chat)');
  if (messages && text !== '') {
    throw new ToolInputError('give text or messages, not both: text must be empty when messages is given');
  }
  if (messages && mode === 'tokens') {
    throw new ToolInputError(
      'mode tokens lists the tokens of text: use mode count with messages',
      'UNSUPPORTED_OPTION',
    );
  }

  const encoder = await loadEncoder(encoding);
  let tokens: number;
  let ids: number[] | undefined;
  let chatFormat: TokenCountResult['chatFormat'];
  let characters: number;
  let bytes: number;
  if (messages) {
    const chat = countMessages(messages, resolved, encoder);
    tokens = chat.tokens;
    chatFormat = {
      rule: chat.rule,
      messages: messages.length,
      overheadTokens: chat.tokens - chat.contentTokens,
    };
    characters = messages.reduce((sum, m) => sum + countCodePoints(m.content), 0);
    bytes = messages.reduce((sum, m) => sum + Buffer.byteLength(m.content, 'utf8'), 0);
  } else {
    // An estimate counts the text its own way (estimates.ts); only exact counts have ids.
    if (estimate) tokens = estimateTokens(estimate, encoder, text);
    else {
      ids = encoder.encode(text);
      tokens = ids.length;
    }
    characters = countCodePoints(text);
    bytes = Buffer.byteLength(text, 'utf8');
  }

  const result: TokenCountResult = {
    tokens,
    encoding,
    ...(model ? { model } : {}),
    family,
    exact: !estimate,
    ...(estimate ? { estimate: estimateReport(estimate, tokens) } : {}),
    characters,
    bytes,
    ...(chatFormat ? { chatFormat } : {}),
  };
  if (limit !== undefined) {
    Object.assign(result, { limit, withinLimit: tokens <= limit, remaining: limit - tokens });
  }
  const price = resolved.entry;
  if (price) {
    result.contextWindow = price.contextWindow;
    result.fits = tokens + (expectedOutputTokens ?? 0) <= price.contextWindow;
  }
  if (expectedOutputTokens !== undefined) result.expectedOutputTokens = expectedOutputTokens;
  if (price && price.input !== null) {
    const inputCost = usd((tokens * price.input) / 1e6);
    const outputCost =
      expectedOutputTokens !== undefined && price.output !== null
        ? usd((expectedOutputTokens * price.output) / 1e6)
        : undefined;
    result.cost = {
      input: inputCost,
      ...(outputCost !== undefined ? { output: outputCost } : {}),
      total: usd(inputCost + (outputCost ?? 0)),
      currency: 'USD',
      pricesAsOf: price.pricesAsOf,
      source: price.source,
      perMillion: { input: price.input, output: price.output },
    };
  }
  if (mode === 'tokens' && ids) {
    const listed = ids.slice(0, MAX_LISTED);
    Object.assign(result, {
      ids: listed,
      pieces: listed.map((id) => pieceText(encoder.tokenBytes(id))),
      truncated: ids.length > MAX_LISTED,
    });
  }
  return result;
}
