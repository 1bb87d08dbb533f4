/** Request bodies of the scenarios, built once: the load generator sends the same bytes each time. */

/** The "short text" of the cheap run: 40 ASCII characters. */
export const SHORT_TEXT = 'Count the tokens of this short sentence.';

const WORDS = [
  'the',
  'service',
  'counts',
  'tokens',
  'for',
  'a',
  'model',
  'while',
  'agents',
  'send',
  'requests',
  'over',
  'HTTP',
  'and',
  'operators',
  'watch',
  'metrics',
  'latency',
  'budget',
  'window',
  'limit',
  'queue',
  'worker',
  'thread',
  'schema',
  'JSON',
  'of',
  'to',
  'in',
  'with',
  'output',
  'input',
];

/**
 * `bytes` of English-like ASCII text. Words are drawn by a fixed LCG so the text is the same on
 * every run but does not repeat one phrase (a tokenizer would see through a single repeated run
 * of characters, and one long word is BPE's quadratic worst case, not "more work").
 */
export function sizedText(bytes: number): string {
  let seed = 0x2545f491;
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const word = WORDS[(seed >>> 16) % WORDS.length] ?? 'token';
    const sep = (seed & 0xff) < 16 ? '.\n' : ' ';
    parts.push(word, sep);
    length += word.length + sep.length;
  }
  return parts.join('').slice(0, bytes);
}

/** The hub's generic runtime POST running token-counter on `text`. */
export function tokenCounterBody(text: string): string {
  return JSON.stringify({ toolId: 'token-counter', input: { a: text } });
}

/** The same run as an MCP `tools/call` of a 2025-11-25 client (stateless: no handshake needed). */
export function mcpCallBody(text: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'token-counter', arguments: { text } },
  });
}

export const MCP_HEADERS = {
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/**
 * An overdue run: `(a|a)+$` with the `u` flag backtracks even with V8's linear-engine fallback,
 * so only the hub's deadline (regex-tester timeoutMs) ends it.
 */
export const CATASTROPHIC_BODY = JSON.stringify({
  toolId: 'regex-tester',
  input: { a: '^(a|a)+$', b: `${'a'.repeat(39)}!`, c: 'u', mode: 'test' },
});

/** regex-tester's default timeoutMs (tools/regex-tester/tool.ts), the reference of the TIMEOUT target. */
export const REGEX_TIMEOUT_MS = 1000;

/** The reference POST body: a runtime-like JSON document of exactly 208 bytes. */
export const REF_POST_BODY = (() => {
  const make = (trace: string) =>
    JSON.stringify({
      toolId: 'token-counter',
      source: 'api',
      input: { a: SHORT_TEXT, b: 'gpt-4o', c: '1000', mode: 'count' },
      meta: { client: 'bench', trace },
    });
  const base = make('').length;
  return make('0123456789abcdef'.repeat(4).slice(0, Math.max(0, 208 - base)));
})();
