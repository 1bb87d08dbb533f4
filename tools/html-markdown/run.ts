import type { ToolInput } from '#tool-kit';
import { markdownToHtml } from './to-html.js';
import { htmlToMarkdown } from './to-markdown.js';

export interface HtmlMarkdownResult {
  mode: string;
  output: string;
  stats: { inputChars: number; outputChars: number };
}

/** Input as the schema in tool.ts passed it: a string of at most MAX_INPUT_CHARS characters. */
export default async function run(input: ToolInput, mode: string): Promise<HtmlMarkdownResult> {
  const text = input.input as string;
  const output = mode === 'html-to-markdown' ? htmlToMarkdown(text) : markdownToHtml(text);
  return { mode, output, stats: { inputChars: text.length, outputChars: output.length } };
}
