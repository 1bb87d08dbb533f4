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
