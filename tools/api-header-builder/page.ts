import { definePage } from '#tool-kit';
import { MAX_HEADERS } from './tool.js';

export default definePage({
  icon: 'send',
  keywords: ['http', 'headers', 'curl', 'fetch', 'axios', 'python', 'requests', 'snippet', 'code generator'],
  tags: ['http', 'api', 'code-generation'],
  faqs: [
    {
      question: 'Does the hub send the request?',
      answer: 'No. The tool only builds the request and code; the runtime has no network access.',
    },
    {
      question: 'How are headers given?',
      answer: `As a JSON object, or as \`Name: value\` lines, one per line (at most ${MAX_HEADERS}). Names must be RFC 7230 tokens; a value with CR, LF or another control character is refused (no header injection). Repeated names are combined with commas. Without a Content-Type, a JSON body gets application/json and a text body text/plain; charset=utf-8.`,
    },
    {
      question: 'Can a GET or HEAD request have a body?',
      answer:
        'No: such a request is refused with INVALID_INPUT, because fetch rejects it and servers ignore it. Use POST, PUT or PATCH to send a body.',
    },
  ],
  howTo: [
    { title: 'Give the URL', description: 'Pass the absolute URL as `url` (generic: `a`).' },
    {
      title: 'Add headers and body',
      description: 'Pass headers as `headers` (`b`) and the body as `body` (`c`).',
    },
    { title: 'Pick the method', description: 'Set `method` (`mode`), e.g. POST; the default is GET.' },
  ],
  relatedTools: ['api-response-mocker', 'structured-output-validator'],
  hasApi: true,
});
