import { describe, expect, it } from 'vitest';
import { inputErrorOf, TOOL_MESSAGE_MAX_CHARS, ToolInputError } from './tool-error.js';

/** An error as a package's tool throws it, without the hub's class (docs/writing-a-tool.md). */
function packageError(message: string, code: unknown): Error {
  return Object.assign(new Error(message), { name: 'ToolInputError', code });
}

describe('inputErrorOf: a run refusing its input', () => {
  it("takes the hub's ToolInputError as it is", () => {
    expect(inputErrorOf(new ToolInputError('bad', 'UNSUPPORTED_OPTION'))).toEqual({
      code: 'UNSUPPORTED_OPTION',
      message: 'bad',
    });
  });

  it("takes a package's error by its name and code, with its message bounded", () => {
    expect(inputErrorOf(packageError('count is odd', 'INVALID_INPUT'))).toEqual({
      code: 'INVALID_INPUT',
      message: 'count is odd',
    });
    const long = inputErrorOf(packageError('x'.repeat(5000), 'INVALID_INPUT'));
    expect(long?.message).toHaveLength(TOOL_MESSAGE_MAX_CHARS);
  });

  it('leaves everything else to be an internal error', () => {
    expect(inputErrorOf(packageError('no code', undefined))).toBeNull();
    expect(inputErrorOf(packageError('other code', 'INTERNAL_ERROR'))).toBeNull();
    expect(inputErrorOf(Object.assign(new Error('x'), { code: 'INVALID_INPUT' }))).toBeNull();
    expect(
      inputErrorOf({ name: 'ToolInputError', code: 'INVALID_INPUT', message: 'not an Error' }),
    ).toBeNull();
    expect(inputErrorOf('a string')).toBeNull();
  });
});
