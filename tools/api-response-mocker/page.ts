import { definePage } from '#tool-kit';

export default definePage({
  icon: 'server',
  keywords: [
    'mock',
    'api',
    'json schema',
    'fake data',
    'msw',
    'express',
    'fetch',
    'curl',
    'python',
    'responses',
    'faker',
  ],
  tags: ['http', 'api', 'mocking', 'code-generation'],
  faqs: [
    {
      question: 'Example or schema: which one is used how?',
      answer:
        'An object with `$schema`, or made only of JSON Schema keywords with a JSON type in `type`, subschemas in `properties`, `items` or `allOf`/`anyOf`/`oneOf`, a `$ref` or an `enum`, is a schema: realistic data is generated from it (json-schema-faker with faker). Anything else, such as `{"items": [{"id": 1}]}`, is an example and is returned exactly as given; no data is synthesised from it.',
    },
    {
      question: 'Is the generated data the same every time?',
      answer:
        'Yes. The generators are seeded from a hash of the schema and the route, so the same input always gives the same response, whichever target you pick. Change the route or the schema to get other data.',
    },
    {
      question: 'Does the generated body always fit the schema?',
      answer:
        'Every body is validated against your schema with ajv (draft-07, or 2020-12 when `$schema` says so). A schema no value can fit, such as `minItems: 10` with `uniqueItems` over a one-value `enum` or an `allOf` of a string and a number, is refused with the keyword and its path. Otherwise a body that does not fit is generated again with other seeds and cheaply repaired; if it still does not fit, `notes` quotes the first validation errors (path, keyword, schema path) and the closest body is returned.',
    },
    {
      question: 'Which schemas are refused or bounded?',
      answer:
        'Only local `$ref`s (`#/...`) are followed; nothing is fetched. Custom `faker`/`chance` keywords, `patternProperties` and `propertyNames` are ignored. Large bounds are lowered (at most 10 array items, 256 characters, 20 properties beyond the minimums) and a response is limited to 5000 values; 1xx statuses are refused.',
    },
  ],
  howTo: [
    {
      title: 'Give the body',
      description: 'Pass a JSON example or a JSON Schema as `response` (generic: `a`).',
    },
    {
      title: 'Set the route',
      description: 'Pass `route` (`b`) as `METHOD /path`, e.g. `GET /api/users/:id`.',
    },
    { title: 'Set the status', description: 'Pass `status` (`c`), e.g. 201; the default is 200.' },
    {
      title: 'Pick a target',
      description: 'Set `target` (`mode`) to fetch, msw, express, curl or python; all is the default.',
    },
  ],
  relatedTools: ['api-header-builder', 'schema-generator', 'structured-output-validator'],
  hasApi: true,
});
