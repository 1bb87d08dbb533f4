/**
 * The documents of a new tool: its agent guide (the prose around the sections that
 * `npm run docs` fills from tool.ts) and its examples (`npm run examples` writes
 * expectedOutput.json from a real run of basic.json). Written to match the template
 * tool in tool-template.ts.
 */

export function skillMd(id: string, name: string): string {
  return `---
name: ${id}
description: "Counts the characters, words and lines of a text, or its distinct words with the most frequent ones."
---

# ${name}

Counts the characters, words and lines of a text, or its distinct words with the most frequent ones.

## When to use

- Measure a text before sending it somewhere with a length limit counted in characters, words or lines.
- Find the words a text repeats most (mode \`unique\`), case-insensitively.
- Not for tokens of a language model: their count differs from words.

## Inputs

<!-- inputs:start -->
<!-- inputs:end -->

A word is a run of letters and digits, joined by inner apostrophes or hyphens (\`it's\`, \`well-known\`); a character is a Unicode code point (an emoji counts once). Lines are separated by \`\\n\`, \`\\r\\n\` or \`\\r\`; the empty text has 0 lines.

## Endpoints

<!-- endpoints:start -->
<!-- endpoints:end -->

## Limits

<!-- limits:start -->
<!-- limits:end -->

## Errors and what to do

- \`INVALID_INPUT\` (400): \`text\` is missing or not a string, or an unknown field was sent. Fix the request; do not retry it unchanged.
- \`UNSUPPORTED_OPTION\` (400): \`mode\` is not \`count\` or \`unique\`.
- \`INPUT_TOO_LARGE\` (413): the text is over the size limit above. Count it in parts and add the results.
- \`RATE_LIMITED\`, \`BUDGET_EXCEEDED\`, \`CONCURRENCY_LIMIT\` (429 or 503): wait \`Retry-After\` seconds, then retry.
- \`INTERNAL_ERROR\` (500): a bug. Retry once at most, then report the \`x-request-id\`.

## Worked example

\`\`\`sh
curl -s -X POST http://localhost:8080/api/${id}/ -H 'content-type: application/json' \\
  -d '{"text":"The cat and the dog.","mode":"unique"}'
\`\`\`

The answer's \`result\` is \`{"mode":"unique","words":5,"unique":4,"top":[{"word":"the","count":2},{"word":"and","count":1},{"word":"cat","count":1},{"word":"dog","count":1}]}\`.
`;
}

/** basic.json and edgeCase.json; expectedOutput.json comes from a real run of basic.json. */
export function examples(id: string): Record<'basic' | 'edgeCase', unknown> {
  return {
    basic: {
      toolId: id,
      input: { a: 'The quick brown fox jumps over the lazy dog.\nThe dog sleeps.', mode: 'count' },
    },
    edgeCase: {
      description: 'A mode the tool does not have is refused with UNSUPPORTED_OPTION',
      request: { toolId: id, input: { a: 'Some text.', mode: 'sentences' } },
      expect: { status: 400, errorCode: 'UNSUPPORTED_OPTION' },
    },
  };
}
