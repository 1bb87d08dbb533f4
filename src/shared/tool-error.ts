/**
 * Errors a tool implementation throws for bad input. They never cross the thread
 * boundary as objects (structured clone drops the class): the worker turns them
 * into a result envelope with `code` and `message`.
 */
import { quote } from './quote.js';

export type ToolErrorCode = 'INVALID_INPUT' | 'UNSUPPORTED_OPTION' | 'BUDGET_EXCEEDED';

export class ToolInputError extends Error {
  readonly code: ToolErrorCode;
  constructor(message: string, code: ToolErrorCode = 'INVALID_INPUT') {
    super(message);
    this.name = 'ToolInputError';
    this.code = code;
  }
}

const INPUT_CODES: readonly string[] = ['INVALID_INPUT', 'UNSUPPORTED_OPTION', 'BUDGET_EXCEEDED'];
/** The most of a package tool's message a client is sent. */
export const TOOL_MESSAGE_MAX_CHARS = 1000;

/**
 * The refusal a run threw, as code and message, or null when it is not one. A package's tool
 * cannot import the hub's ToolInputError (docs/writing-a-tool.md): an Error whose `name` is
 * `ToolInputError` and whose `code` is one of ToolErrorCode is taken as one, its message cut
 * to TOOL_MESSAGE_MAX_CHARS.
 */
export function inputErrorOf(err: unknown): { code: ToolErrorCode; message: string } | null {
  if (err instanceof ToolInputError) return { code: err.code, message: err.message };
  if (!(err instanceof Error) || err.name !== 'ToolInputError') return null;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !INPUT_CODES.includes(code)) return null;
  return { code: code as ToolErrorCode, message: String(err.message).slice(0, TOOL_MESSAGE_MAX_CHARS) };
}

/** Shorthand for the common "option not supported" error that lists what is. */
export function unsupported(what: string, value: unknown, supported: readonly string[]): ToolInputError {
  return new ToolInputError(
    `${what} ${quote(value)} is not supported; supported: ${supported.join(', ')}`,
    'UNSUPPORTED_OPTION',
  );
}

/** Parses JSON text, or passes through a value that is already structured (POST JSON). */
export function parseJsonField(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new ToolInputError(`${field} is not valid JSON: ${(err as Error).message}`);
  }
}
