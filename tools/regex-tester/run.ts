/** regex-tester: match, test, replace and split with native JavaScript RegExp semantics. */
import { type ToolInput, ToolInputError } from '#tool-kit';
import { compilePattern, engineMessage } from './compile.js';
import { listMatches, splitText, testMatch } from './matches.js';
import { replaceBounded } from './substitute.js';

/** Input as the schema in tool.ts passed it: strings within their lengths, text defaulted to ''. */
export default async function run(input: ToolInput, mode: string) {
  const compiled = compilePattern(input.pattern as string, input.flags as string | undefined);
  const { regex, source, flags, flagsFrom } = compiled;
  const head = { mode, pattern: source, flags, flagsFrom };
  try {
    return execute(mode, regex, input.text as string, input.replacement as string | undefined, head);
  } catch (err) {
    // V8 compiles a pattern lazily, on its first exec: a pattern too large or too deeply
    // nested for the engine ("Stack overflow", "Regular expression too large") fails there.
    if (err instanceof SyntaxError) throw new ToolInputError(engineMessage(err));
    throw err;
  }
}

function execute(mode: string, regex: RegExp, text: string, given: string | undefined, head: object) {
  switch (mode) {
    case 'test':
      return { ...head, ...testMatch(regex, text) };
    case 'replace': {
      // No replacement deletes the matches.
      const replacement = given ?? '';
      return { ...head, replacement, ...replaceBounded(regex, text, replacement) };
    }
    case 'split':
      return { ...head, ...splitText(regex, text) };
    default:
      return { ...head, global: regex.global, ...listMatches(regex, text) };
  }
}
