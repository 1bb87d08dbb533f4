/** Shared helpers of this tool's tests (no vitest import: the build compiles this file too). */
import { ToolInputError } from '../../src/shared/tool-error.js';
import run from './run.js';

export interface Converted {
  from: string;
  to: string;
  output: string;
  detected: boolean;
  confidence?: number;
  warnings: string[];
}

export const convert = async (input: string, to?: string, from?: string): Promise<Converted> =>
  (await run({ input, to, from }, 'convert')) as Converted;

/** Resolves to the ToolInputError a call rejects with (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<ToolInputError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof ToolInputError) return err;
  throw new Error(`expected a ToolInputError, got ${err === undefined ? 'a result' : String(err)}`);
}
