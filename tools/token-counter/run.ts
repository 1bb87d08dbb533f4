import type { ToolInput } from '../../src/shared/tool-def.js';
import { ToolInputError, unsupported } from '../../src/shared/tool-error.js';
import { loadEncoder, resolveEncoding } from './encodings.js';
import { pieceText } from './pieces.js';

/** Longest text accepted, in Unicode code points (the schema's maxLength counts the same way). */
export const MAX_TEXT_CHARS = 1_048_576;
export const MAX_LIMIT = 10_000_000;
/** At most this many ids/pieces are listed in tokens mode; the count always covers the whole text. */
export const MAX_LISTED = 10_000;
export const DEFAULT_MODEL = 'gpt-4o';
const MODES = ['count', 'tokens'];

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function readLimit(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const limit = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
    throw new ToolInputError(`limit must be an integer from 0 to ${MAX_LIMIT}`);
  }
  return limit;
}

function readModel(value: unknown): string {
  if (value === undefined || value === null || value === '') return DEFAULT_MODEL;
  if (typeof value !== 'string' || value.length > 100) {
    throw new ToolInputError('model must be a model or encoding name (a string of at most 100 characters)');
  }
  return value;
}

export interface TokenCountResult {
  tokens: number;
  encoding: string;
  model?: string;
  /** Unicode code points (not UTF-16 units). */
  characters: number;
  /** UTF-8 bytes. */
  bytes: number;
  limit?: number;
  withinLimit?: boolean;
  /** limit - tokens; negative when the text is over the limit. */
  remaining?: number;
  ids?: number[];
  pieces?: string[];
  truncated?: boolean;
}

export default async function run(input: ToolInput, mode: string): Promise<TokenCountResult> {
  if (!MODES.includes(mode)) throw unsupported('mode', mode, MODES);
  const text = input.text ?? '';
  if (typeof text !== 'string') throw new ToolInputError('text must be a string');
  // A code point is 1 or 2 UTF-16 units: the length check spares counting a huge string.
  const characters = text.length > 2 * MAX_TEXT_CHARS ? Number.POSITIVE_INFINITY : countCodePoints(text);
  if (characters > MAX_TEXT_CHARS) {
    throw new ToolInputError(
      `text is too long: more than ${MAX_TEXT_CHARS} characters (Unicode code points)`,
    );
  }
  const limit = readLimit(input.limit);
  const { encoding, model } = resolveEncoding(readModel(input.model));

  const encoder = await loadEncoder(encoding);
  const ids = encoder.encode(text);
  const result: TokenCountResult = {
    tokens: ids.length,
    encoding,
    ...(model ? { model } : {}),
    characters,
    bytes: Buffer.byteLength(text, 'utf8'),
  };
  if (limit !== undefined) {
    Object.assign(result, { limit, withinLimit: ids.length <= limit, remaining: limit - ids.length });
  }
  if (mode === 'tokens') {
    const listed = ids.slice(0, MAX_LISTED);
    Object.assign(result, {
      ids: listed,
      pieces: listed.map((id) => pieceText(encoder.tokenBytes(id))),
      truncated: ids.length > MAX_LISTED,
    });
  }
  return result;
}
