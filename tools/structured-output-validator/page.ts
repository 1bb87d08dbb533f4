import { definePage } from '#tool-kit';

export default definePage({
  category: 'ai',
  icon: 'shield-check',
  keywords: [
    'json schema',
    'draft-07',
    'validator',
    'structured output',
    'llm',
    'function calling',
    'tool schema',
    'openai',
    'anthropic',
    'ajv',
  ],
  tags: ['json', 'json-schema', 'validation', 'llm', 'ai'],
  faqs: [
    {
      question: 'What does `path` in an error mean?',
      answer:
        "A JSON Pointer (RFC 6901) to the failing location: in the target for validate/lenient (ajv's instancePath; '' is the root), in the schema document for schema mode. `schemaPath` says which schema keyword failed.",
    },
    {
      question: 'What happens in lenient mode when the text holds no JSON?',
      answer:
        "The result is `valid: false` with one error of keyword `json` at path '' explaining why (and `extractedFrom: null`); it is not a request error. Only extraction is done: broken JSON (trailing commas, comments, single quotes) is not repaired.",
    },
    {
      question: 'Are remote $ref schemas fetched?',
      answer:
        'Never. Only references inside the schema (#/definitions/..., or an $id defined in it) resolve; any other $ref makes the schema invalid (INVALID_INPUT in validate mode, an error of keyword $ref in schema mode). Only draft-07 is supported: another $schema is refused.',
    },
  ],
  howTo: [
    {
      title: 'Give the schema',
      description: 'Pass a draft-07 JSON Schema or a tool/function schema as `schema` (generic: `a`).',
    },
    {
      title: 'Give the output to check',
      description: 'Pass the JSON (or raw LLM output, with mode `lenient`) as `target` (generic: `b`).',
    },
    {
      title: 'Read the errors',
      description:
        'Check `valid`; each entry of `errors` has a JSON Pointer `path`, the failing `keyword` and a `message`.',
    },
    {
      title: 'Check a tool schema',
      description:
        "Set `mode` to `schema` to check the schema itself (meta-schema, patterns, $refs, tool name) before giving it to a model; add `provider` (openai-strict, gemini, anthropic, mcp) for that provider's rules.",
    },
    {
      title: 'Make a schema strict',
      description:
        'Set `mode` to `fix` to get the OpenAI strict-mode version of a schema (`fixed`) with the list of `changes`, already linted.',
    },
  ],
  relatedTools: ['schema-generator', 'structured-diff', 'api-response-mocker', 'token-counter'],
  hasApi: true,
});
