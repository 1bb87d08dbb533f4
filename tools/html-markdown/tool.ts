import { defineTool } from '#tool-kit';

export const MODES = ['html-to-markdown', 'markdown-to-html'] as const;
/** inputMaxBytes of the policy; a character is at least one UTF-8 byte. */
export const MAX_INPUT_CHARS = 524288;

/** The result of both modes (MCP outputSchema). */
const OUTPUT = {
  type: 'object',
  properties: {
    mode: { type: 'string', enum: [...MODES], description: 'The conversion that ran' },
    output: {
      type: 'string',
      description: 'Markdown (html-to-markdown) or sanitized HTML (markdown-to-html)',
    },
    stats: {
      type: 'object',
      description: 'Sizes of the input and the output',
      properties: {
        inputChars: { type: 'integer', minimum: 0, description: 'Length of the input (UTF-16 code units)' },
        outputChars: { type: 'integer', minimum: 0, description: 'Length of the output (UTF-16 code units)' },
      },
      required: ['inputChars', 'outputChars'],
      additionalProperties: false,
    },
  },
  required: ['mode', 'output', 'stats'],
  additionalProperties: false,
};

export default defineTool({
  id: 'html-markdown',
  name: 'HTML ⇄ Markdown Converter',
  description:
    'Converts HTML to GitHub-flavoured Markdown (tables, task lists, fenced code with language) and Markdown to HTML that is sanitized and safe to embed: no scripts, no event handlers, no javascript: links.',
  category: 'devtools',
  icon: 'file-code',
  keywords: ['html', 'markdown', 'md', 'gfm', 'converter', 'turndown', 'sanitize', 'xss', 'table'],
  tags: ['text', 'conversion', 'markup'],
  riskClass: 'M',
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 524288, timeoutMs: 3000 },
  modes: [...MODES],
  modeField: 'mode',
  fields: { a: 'input', b: null, c: null },
  input: {
    type: 'object',
    properties: {
      input: {
        type: 'string',
        maxLength: MAX_INPUT_CHARS,
        description: 'HTML (html-to-markdown) or Markdown (markdown-to-html)',
      },
    },
    required: ['input'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    input:
      'The document to convert: HTML for html-to-markdown, GitHub-flavoured Markdown for markdown-to-html',
    mode: 'html-to-markdown (default) or markdown-to-html',
  },
  endpoints: [
    {
      path: '/api/html-markdown/',
      methods: ['GET', 'POST'],
      summary: 'Convert HTML to Markdown, or Markdown to sanitized HTML',
    },
  ],
  faqs: [
    {
      question: 'Is the HTML output safe to put in a page?',
      answer:
        'Yes. Markdown is rendered with GFM, then everything (raw HTML in the Markdown included) passes an allow-list: no script, style, iframe, object, embed or form elements, no on* or style attributes, and links and images keep only http, https, mailto or relative URLs.',
    },
    {
      question: 'What happens to scripts when converting HTML to Markdown?',
      answer:
        'They are dropped with their content, as are styles; links with unsafe schemes keep their text but lose the URL.',
    },
    {
      question: 'Which Markdown features are supported?',
      answer:
        'GitHub-flavoured Markdown: tables (with alignment), strikethrough, task lists, fenced code blocks with a language, autolinks.',
    },
  ],
  howTo: [
    { title: 'Paste the document', description: 'Pass the HTML or Markdown as `input` (generic: `a`).' },
    {
      title: 'Pick the direction',
      description: 'Set `mode` to html-to-markdown (default) or markdown-to-html.',
    },
    { title: 'Use the output', description: 'Read `output`; `stats` gives the input and output lengths.' },
  ],
  relatedTools: ['format-detective', 'structured-diff', 'regex-tester'],
  deterministic: true,
});
