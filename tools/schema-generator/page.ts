import { definePage } from '#tool-kit';

export default definePage({
  category: 'ai',
  icon: 'braces',
  keywords: [
    'json schema',
    'schema generator',
    'infer schema',
    'draft-07',
    'structured outputs',
    'strict mode',
    'function calling',
    'openai',
    'json to schema',
  ],
  tags: ['json', 'json-schema', 'llm'],
  faqs: [
    {
      question: 'Which fields become required?',
      answer:
        'A property is required when it is present with a non-null value in every object seen at that place (every element of an array, every sample in merge mode). Otherwise it is optional, and nullable if null was seen.',
    },
    {
      question: 'Which string formats are detected?',
      answer:
        'date-time (RFC 3339 with a time zone), date, uuid, email, ipv4, ipv6 and uri (scheme://...). A format is set only when every string at that place has it, and it is checked with the same ajv-formats validators the hub uses, so the schema always accepts its sample.',
    },
    {
      question: 'What does strict mode change?',
      answer:
        'It targets OpenAI Structured Outputs: every object lists all properties in required and sets additionalProperties to false; an optional property becomes nullable (type ["string","null"]); uri formats are dropped. The root should be an object: a warning says so otherwise, as it does past the API size limits (5000 properties in total, 10 levels of object nesting, 120,000 characters of property names).',
    },
  ],
  howTo: [
    { title: 'Paste a sample', description: 'Pass a JSON document as `sample` (generic: `a`).' },
    { title: 'Name it', description: 'Optionally set `title` (`b`).' },
    {
      title: 'Pick the mode',
      description:
        'Set `mode` to strict for LLM structured output, or merge with an array of several samples.',
    },
    { title: 'Use the schema', description: 'Copy `schema`; validate data with the schema validator tool.' },
  ],
  relatedTools: ['structured-output-validator', 'api-response-mocker', 'token-counter'],
});
