import { definePage } from '#tool-kit';

export default definePage({
  icon: 'file-code',
  keywords: ['html', 'markdown', 'md', 'gfm', 'converter', 'turndown', 'sanitize', 'xss', 'table'],
  tags: ['text', 'conversion', 'markup'],
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
});
