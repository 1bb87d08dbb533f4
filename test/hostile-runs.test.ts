import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { buildTestApp, errorBody, FIXTURE_TOOLS, NO_TOOLS, policyFile, type TestApp } from './helpers.js';

/**
 * Runaway runs and hostile input against the real tools: every one ends within its
 * bounds as TIMEOUT, BUDGET_EXCEEDED or INVALID_INPUT, and good requests keep working.
 */
let app: TestApp;
beforeAll(async () => {
  // Short deadlines keep the suite fast; the mechanism is the same at the defaults.
  const file = await policyFile({
    tools: {
      'regex-tester': { timeoutMs: 400, maxInFlightPerClient: 8 },
      'structured-output-validator': { timeoutMs: 400, maxInFlightPerClient: 8 },
      'token-counter': { limit: 100000 },
    },
  });
  app = await buildTestApp({ POLICY_FILE: file, POOL_THREADS: '2', WORKER_HEAP_MB: '128' }, true);
});
afterAll(async () => {
  await app.close();
});

const run = (toolId: string, input: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId, input } });

const evil = `${'a'.repeat(40)}!`;
const RUNAWAYS: [string, string, Record<string, string>, string[]][] = [
  [
    'catastrophic regex (u flag, tester)',
    'regex-tester',
    { a: '^(a|a)+$', b: evil, c: 'u', mode: 'test' },
    ['TIMEOUT'],
  ],
  [
    'catastrophic backreference regex',
    'regex-tester',
    { a: '^(a+)\\1*(a+)+$', b: evil, mode: 'test' },
    ['TIMEOUT', 'ok'],
  ],
  [
    'catastrophic schema pattern',
    'structured-output-validator',
    { a: JSON.stringify({ type: 'string', pattern: '^(a|a)+$' }), b: JSON.stringify(evil) },
    ['TIMEOUT'],
  ],
  [
    'YAML alias bomb',
    'format-detective',
    {
      a: `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n`,
      b: 'json',
      c: 'yaml',
      mode: 'convert',
    },
    ['INVALID_INPUT', 'TIMEOUT'],
  ],
  [
    'XML entity expansion (billion laughs)',
    'format-detective',
    {
      a: '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><l>&d;&d;&d;&d;&d;&d;&d;</l>',
      b: 'json',
      c: 'xml',
      mode: 'convert',
    },
    ['ok', 'INVALID_INPUT', 'TIMEOUT'],
  ],
  [
    'deep JSON',
    'structured-diff',
    { a: `${'['.repeat(5000)}${']'.repeat(5000)}`, b: '[]' },
    ['INVALID_INPUT'],
  ],
  [
    'deep JSON sample',
    'schema-generator',
    { a: `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}` },
    ['INVALID_INPUT'],
  ],
  ['huge QR size', 'qr-code', { a: 'x', c: '100000' }, ['INVALID_INPUT']],
  ['huge palette', 'color-palette', { a: 'red', b: '100000', mode: 'shades' }, ['INVALID_INPUT']],
  [
    'deep Markdown nesting',
    'html-markdown',
    { a: '>'.repeat(100_000), mode: 'markdown-to-html' },
    ['ok', 'INVALID_INPUT', 'TIMEOUT'],
  ],
  ['deep HTML nesting', 'html-markdown', { a: '<div>'.repeat(50_000) }, ['ok', 'INVALID_INPUT', 'TIMEOUT']],
  [
    'huge schema mock',
    'api-response-mocker',
    {
      a: JSON.stringify({ type: 'array', minItems: 1000000, items: { type: 'string', minLength: 1000000 } }),
    },
    ['INVALID_INPUT'],
  ],
];

describe('runaway runs end within their bounds', () => {
  it.each(RUNAWAYS)('%s', async (_name, toolId, input, outcomes) => {
    const res = await run(toolId, input);
    const body = res.json();
    const outcome = body.ok ? 'ok' : body.errorCode;
    expect(outcomes, res.body.slice(0, 300)).toContain(outcome);
    if (!body.ok) errorBody(res);
  });
});

describe('a burst of runaways beside good runs', () => {
  // Its own instance with a 3 s deadline for the runaways: the window in which good runs
  // must complete is the burst itself, long enough on a loaded machine.
  let burstApp: TestApp;
  beforeAll(async () => {
    const file = await policyFile({
      tools: {
        'regex-tester': { timeoutMs: 3000, maxInFlightPerClient: 8 },
        'token-counter': { limit: 100000 },
      },
    });
    burstApp = await buildTestApp({ POLICY_FILE: file, POOL_THREADS: '2' }, true);
  });
  afterAll(async () => {
    await burstApp.close();
  });
  const burstRun = (toolId: string, input: Record<string, string>) =>
    burstApp.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId, input } });

  it('a burst of runaways does not stop well-behaved requests', async () => {
    // Judged by order, not by time: good runs must complete while the bad ones are
    // still pending (held runaways leave the active workers), and all succeed. The good
    // tool has run once, so its runs do not include its tables' set-up.
    expect((await burstRun('token-counter', { a: 'warm' })).statusCode).toBe(200);
    let pending = true;
    const bad = Promise.all(
      Array.from({ length: 6 }, () =>
        burstRun('regex-tester', { a: '^(a|a)+$', b: evil, c: 'u', mode: 'test' }),
      ),
    ).finally(() => {
      pending = false;
    });
    const good: number[] = [];
    const bodies: string[] = [];
    await expect.poll(() => burstApp.pool.stats().held).toBeGreaterThan(0);
    // A bounded number: a loop as long as the runaways last would spend the tool's compute
    // budget on a slow machine (each run is charged at least 1 ms), and its 429 is not the point.
    while (pending && good.length < 200) {
      const res = await burstRun('token-counter', { a: 'still serving' });
      if (pending) good.push(res.statusCode);
      if (res.statusCode !== 200) bodies.push(res.body);
    }
    const badCodes = (await bad).map((r) => r.json().errorCode);
    expect(
      badCodes.every((c) => c === 'TIMEOUT' || c === 'CONCURRENCY_LIMIT'),
      badCodes.join(),
    ).toBe(true);
    expect(good.length).toBeGreaterThanOrEqual(3);
    expect(
      good.every((s) => s === 200),
      bodies.join('\n'),
    ).toBe(true);
  });
});

describe('output safety', () => {
  const vectors = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[x](javascript:alert(1))',
    '<a href="jav&#x61;script:alert(1)">x</a>',
    '<svg onload=alert(1)>',
    '<iframe src="https://evil.example"></iframe>',
    '[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<form action="javascript:alert(1)"><button>go</button></form>',
    '<a href="  JaVaScRiPt:alert(1)">x</a>',
  ];
  it.each(vectors)('markdown-to-html over HTTP neutralises %s', async (vector) => {
    const res = await run('html-markdown', { a: `# t\n\n${vector}\n`, mode: 'markdown-to-html' });
    expect(res.statusCode).toBe(200);
    const html: string = res.json().result.output;
    expect(html).not.toMatch(/<script|<iframe|<form|<svg|\son\w+=|javascript:|data:text/i);
  });

  it('refuses CR/LF header injection in the request builder', async () => {
    const res = await run('api-header-builder', {
      a: 'https://x.io',
      b: JSON.stringify({ 'X-A': 'v\r\nSet-Cookie: s=1' }),
    });
    expect(res.statusCode).toBe(400);
    expect(errorBody(res).errorCode).toBe('INVALID_INPUT');
  });

  it('never evaluates YAML custom tags', async () => {
    const res = await run('format-detective', {
      a: 'a: !!js/function "function(){return 1}"\n',
      b: 'json',
      c: 'yaml',
      mode: 'convert',
    });
    const body = res.json();
    if (body.ok) expect(JSON.parse(body.result.output)).toEqual({ a: 'function(){return 1}' });
    else expect(body.errorCode).toBe('INVALID_INPUT');
  });

  it('never resolves external XML entities', async () => {
    const xml = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
    const res = await run('format-detective', { a: xml, b: 'json', c: 'xml', mode: 'convert' });
    expect(res.body).not.toContain('root:');
  });
});

describe('client identity', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is on', async () => {
    const file = await policyFile({ tools: { 'qr-code': { limit: 1, burst: 0 } } });
    for (const [trust, expectAfterSpoof] of [
      ['false', 429],
      ['true', 200],
    ] as const) {
      const a = await buildTestApp({ POLICY_FILE: file, TRUST_PROXY: trust }, true);
      try {
        const ask = (ip: string) =>
          a.inject({ url: '/api/qr-code/?data=x', headers: { 'x-forwarded-for': ip } });
        const first = await ask('203.0.113.1');
        expect(first.statusCode, first.body).toBe(200);
        // A client inventing a new address: counted as itself unless proxies are trusted.
        const spoofed = await ask('203.0.113.2');
        expect(spoofed.statusCode, spoofed.body).toBe(expectAfterSpoof);
      } finally {
        await a.close();
      }
    }
  });
});

describe('load shedding', () => {
  it('answers 503 CONCURRENCY_LIMIT with Retry-After under memory pressure, keeping health endpoints up', async () => {
    const a = await buildTestApp({ PRESSURE_MAX_HEAP_USED_BYTES: '1' });
    try {
      await new Promise((r) => setTimeout(r, 600));
      const res = await a.inject({ url: '/api/tools/run?toolId=fx-echo&a=1' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      const body = errorBody(res);
      expect(body.errorCode).toBe('CONCURRENCY_LIMIT');
      expect(body.error).toContain('under pressure');
      expect((await a.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await a.inject({ url: '/metrics' })).statusCode).toBe(200);
      const ready = await a.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().status).toBe('under-pressure');
    } finally {
      await a.close();
    }
  });

  it("does not count the boot's own work as lag: a hub that says ready serves", async () => {
    // Not buildTestApp: its pool warm-up after ready would outlast the sampling period in
    // which a wrongly counted boot sheds, and the test would pass without the fix.
    const a = await buildApp({
      logger: false,
      toolsDir: NO_TOOLS,
      env: {
        LOG_LEVEL: 'silent',
        EXTRA_TOOL_DIRS: FIXTURE_TOOLS,
        POOL_THREADS: '1',
        JUNK_LIMIT: '0',
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '300',
      },
    });
    try {
      // A boot step that holds the loop 1.5 s, as compiling and loading do on a loaded machine.
      a.register(async () => {
        const until = Date.now() + 1500;
        while (Date.now() < until) {
          // busy: the event loop cannot turn
        }
      });
      await a.ready();
      // Ask across three sampling periods after ready: none may be shed.
      const until = Date.now() + 800;
      while (Date.now() < until) {
        const res = await a.inject({ url: '/api/tools/run?toolId=fx-echo&a=1' });
        expect(res.statusCode, res.body).not.toBe(503);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await a.close();
    }
  });

  it('sheds while the event loop lags', async () => {
    const a = await buildTestApp({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '50' });
    try {
      // Lag the loop in 100 ms slices across a few samples (the plugin samples every 250 ms).
      for (let i = 0; i < 8; i++) {
        const until = Date.now() + 100;
        while (Date.now() < until) {
          // busy: the event loop cannot turn
        }
        await new Promise((r) => setTimeout(r, 1));
      }
      const res = await a.inject({ url: '/api/tools/run?toolId=fx-echo&a=1' });
      expect(res.statusCode).toBe(503);
      expect(errorBody(res).error).toMatch(/under pressure \(eventLoopDelay\)/);
    } finally {
      await a.close();
    }
  });
});
