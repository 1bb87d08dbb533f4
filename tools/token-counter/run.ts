import type { ToolInput } from '#tool-kit';
import { loadEncoder, resolveEncoding } from './encodings.js';
import { pieceText } from './pieces.js';
import { DEFAULT_MODEL, MAX_LISTED } from './tool.js';

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
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

/**
 * Builds the encoder this input's model needs before the run starts (one of a few fixed
 * tables, ~350 ms on a worker's first use, seconds on a loaded machine): the worker runs it
 * outside the run's deadline, so a cold worker never turns a good count into a TIMEOUT.
 */
export async function prepare(input: ToolInput): Promise<void> {
  await loadEncoder(resolveEncoding((input.model as string) || DEFAULT_MODEL).encoding);
}

/** Input as the schema in tool.ts passed it: text within its length, limit an integer in range. */
export default async function run(input: ToolInput, mode: string): Promise<TokenCountResult> {
  const text = input.text as string;
  const limit = input.limit as number | undefined;
  // An empty model (`?b=`) is text, so the schema's default does not fill it: it means the default.
  const { encoding, model } = resolveEncoding((input.model as string) || DEFAULT_MODEL);

  const encoder = await loadEncoder(encoding);
  const ids = encoder.encode(text);
  const result: TokenCountResult = {
    tokens: ids.length,
    encoding,
    ...(model ? { model } : {}),
    characters: countCodePoints(text),
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
