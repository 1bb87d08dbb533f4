/** regex-tester: match, test, replace and split with native JavaScript RegExp semantics. */
import type { ToolInput } from '../../src/shared/tool-def.js';
import { ToolInputError, unsupported } from '../../src/shared/tool-error.js';
import { compilePattern, engineMessage } from './compile.js';
import { listMatches, splitText, testMatch } from './matches.js';
import { replaceBounded } from './substitute.js';

const MODES = ['match', 'test', 'replace', 'split'];
export const MAX_TEXT_LENGTH = 131072;
export const MAX_REPLACEMENT_LENGTH = 32768;

function readString(value: unknown, field: string, max: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new ToolInputError(`${field} must be a string`);
  if (value.length > max)
    throw new ToolInputError(`${field} is ${value.length} characters; the maximum is ${max}`);
  return value;
}

export default async function run(input: ToolInput, mode: string) {
  if (!MODES.includes(mode)) throw unsupported('mode', mode, MODES);
  const { regex, source, flags, flagsFrom } = compilePattern(input.pattern, input.flags);
  const text = readString(input.text, 'text', MAX_TEXT_LENGTH);
  const head = { mode, pattern: source, flags, flagsFrom };
  try {
    return execute(mode, regex, text, input.replacement, head);
  } catch (err) {
    // V8 compiles a pattern lazily, on its first exec: a pattern too large or too deeply
    // nested for the engine ("Stack overflow", "Regular expression too large") fails there.
    if (err instanceof SyntaxError) throw new ToolInputError(engineMessage(err));
    throw err;
  }
}

function execute(mode: string, regex: RegExp, text: string, rawReplacement: unknown, head: object) {
  switch (mode) {
    case 'test':
      return { ...head, ...testMatch(regex, text) };
    case 'replace': {
      const replacement = readString(rawReplacement, 'replacement', MAX_REPLACEMENT_LENGTH);
      return { ...head, replacement, ...replaceBounded(regex, text, replacement) };
    }
    case 'split':
      return { ...head, ...splitText(regex, text) };
    default:
      return { ...head, global: regex.global, ...listMatches(regex, text) };
  }
}
