import { defineTool } from '#tool-kit';

export const MODES = ['html-to-markdown', 'markdown-to-html'] as const;
/** inputMaxBytes of the policy; a character is at least one UTF-8 byte. */
export const MAX_INPUT_CHARS = 524288;

export default defineTool({
  id: 'html-markdown',
  title: 'HTML ⇄ Markdown Converter',
  description:
    'Converts HTML to GitHub-flavoured Markdown (tables, task lists, fenced code with language) and Markdown to HTML that is sanitized and safe to embed: no scripts, no event handlers, no javascript: links.',
  input: {
    type: 'object',
    properties: {
      input: {
        type: 'string',
        maxLength: MAX_INPUT_CHARS,
        description:
          'The document to convert: HTML for html-to-markdown, GitHub-flavoured Markdown for markdown-to-html',
      },
    },
    required: ['input'],
    additionalProperties: false,
  },
  output: {
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
          outputChars: {
            type: 'integer',
            minimum: 0,
            description: 'Length of the output (UTF-16 code units)',
          },
        },
        required: ['inputChars', 'outputChars'],
        additionalProperties: false,
      },
    },
    required: ['mode', 'output', 'stats'],
    additionalProperties: false,
  },
  policy: { inputMaxBytes: MAX_INPUT_CHARS, timeoutMs: 3000, riskClass: 'M' },
  modes: {
    description: 'html-to-markdown (default) or markdown-to-html',
    each: { 'html-to-markdown': {}, 'markdown-to-html': {} },
  },
  deterministic: true,
});
