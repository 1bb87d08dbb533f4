import { Marked } from 'marked';
import { ToolInputError } from '#tool-kit';
import { SAFE_HTML, sanitize } from './sanitize.js';

const marked = new Marked({ gfm: true, breaks: false });

/**
 * Markdown (GFM: tables, strikethrough, task lists, autolinks) to HTML that is safe to
 * embed: marked passes raw HTML through, so its whole output goes through the allow-list.
 */
export function markdownToHtml(markdown: string): string {
  let html: string;
  try {
    html = marked.parse(markdown, { async: false });
  } catch (err) {
    // marked recurses per nesting level (e.g. thousands of `>`); the stack is the bound.
    if (err instanceof RangeError) throw new ToolInputError('Markdown is nested too deeply to convert');
    throw err;
  }
  return sanitize(html, SAFE_HTML);
}
