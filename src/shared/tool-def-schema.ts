/** JSON Schema of a tool definition (src/shared/tool-def.ts): the registry checks every module with it. */
const str = { type: 'string', minLength: 1 } as const;
const strList = { type: 'array', items: str } as const;
const posInt = { type: 'integer', minimum: 1 } as const;
const slotName = {
  anyOf: [{ type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*$' }, { type: 'null' }],
} as const;

export const TOOL_DEFINITION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'description',
    'category',
    'icon',
    'keywords',
    'tags',
    'riskClass',
    'policy',
    'modes',
    'modeField',
    'fields',
    'input',
    'semanticFields',
    'endpoints',
    'faqs',
    'howTo',
    'relatedTools',
  ],
  properties: {
    id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
    name: str,
    description: str,
    category: { enum: ['devtools', 'ai'] },
    icon: str,
    keywords: strList,
    tags: strList,
    riskClass: { enum: ['L', 'M', 'H'] },
    hasApi: { type: 'boolean' },
    policy: {
      type: 'object',
      additionalProperties: false,
      required: ['limit', 'burst', 'windowSec', 'inputMaxBytes', 'timeoutMs'],
      properties: {
        limit: posInt,
        burst: { type: 'integer', minimum: 0 },
        windowSec: posInt,
        inputMaxBytes: posInt,
        timeoutMs: posInt,
      },
    },
    modes: { ...strList, minItems: 1, uniqueItems: true },
    modeField: slotName,
    fields: {
      type: 'object',
      additionalProperties: false,
      required: ['a', 'b', 'c'],
      properties: { a: slotName, b: slotName, c: slotName },
    },
    fieldsByMode: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: { a: slotName, b: slotName, c: slotName },
      },
    },
    input: { type: 'object', required: ['type', 'properties'], properties: { type: { const: 'object' } } },
    semanticFields: { type: 'object', minProperties: 1, additionalProperties: str },
    endpoints: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'methods', 'summary'],
        properties: {
          path: { type: 'string', pattern: '^/api/[a-z0-9-]+/([a-z0-9-]+/)?$' },
          methods: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['GET', 'POST'] } },
          summary: str,
          mode: str,
          modes: { ...strList, minItems: 1 },
        },
      },
    },
    faqs: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['question', 'answer'],
        properties: { question: str, answer: str },
      },
    },
    howTo: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'description'],
        properties: { title: str, description: str },
      },
    },
    relatedTools: strList,
    volatileResultFields: strList,
  },
} as const;
