import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { addCodeBlockRules } from './code-blocks.js';
import { addEscapingRules, escapeHtmlStarts } from './markdown-escapes.js';
import { MAX_ROW_CELLS, sanitize, TURNDOWN_INPUT } from './sanitize.js';
import { addLinearRules } from './turndown-rules.js';

let service: TurndownService | undefined;

/** One configured Turndown per worker thread (configuration only, no per-call state). */
function turndown(): TurndownService {
  if (service) return service;
  const td = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  td.use(gfm);
  addEscapingRules(td);
  addLinearRules(td);
  addCodeBlockRules(td);
  // Text that reads like a tag (`&lt;img onerror=...&gt;` in the HTML) must stay text in
  // Markdown, where a raw `<img` would be HTML again: `<` before a tag-like start is written `&lt;`.
  const escapeMarkdown = td.escape.bind(td);
  td.escape = (text: string) => escapeHtmlStarts(escapeMarkdown(text));
  service = td;
  return td;
}

/**
 * HTML to GitHub-flavoured Markdown. The HTML is sanitized first: scripts and styles go
 * with their content, and links or images with unsafe schemes lose their URL.
 */
export function htmlToMarkdown(html: string): string {
  const clean = sanitize(html, TURNDOWN_INPUT, MAX_ROW_CELLS);
  if (clean.trim() === '') return '';
  return turndown().turndown(clean);
}
