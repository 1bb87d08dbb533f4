import type { ToolInput } from '../../src/shared/tool-def.js';
import { ToolInputError, unsupported } from '../../src/shared/tool-error.js';
import { markdownToHtml } from './to-html.js';
import { htmlToMarkdown } from './to-markdown.js';
import { MAX_INPUT_CHARS, MODES } from './tool.js';

export interface HtmlMarkdownResult {
  mode: string;
  output: string;
  stats: { inputChars: number; outputChars: number };
}

export default async function run(input: ToolInput, mode: string): Promise<HtmlMarkdownResult> {
  if (!MODES.includes(mode)) throw unsupported('mode', mode, MODES);
  const text = input.input;
  if (typeof text !== 'string') throw new ToolInputError('input must be a string of HTML or Markdown');
  if (text.length > MAX_INPUT_CHARS)
    throw new ToolInputError(`input is longer than ${MAX_INPUT_CHARS} characters`);
  const output = mode === 'html-to-markdown' ? htmlToMarkdown(text) : markdownToHtml(text);
  return { mode, output, stats: { inputChars: text.length, outputChars: output.length } };
}
