/**
 * Pipelines (docs/api.md, "Pipelines") through a real hub on a real port and a real Redis:
 * a named pipeline answers the same on every door (its dedicated route, the generic runtime,
 * batch, a job, MCP through the published SDK client, and the ad hoc route with the same
 * steps); it is listed like a tool (skills index, descriptor, SKILL.md, OpenAPI, its page);
 * each step is a run under the caller's rate limits and quotas; a failing middle step ends it
 * with its error, its index and the results before it; the shipped examples' answers.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { projectRoot } from '../src/paths.js';
import {
  apiKeysFile,
  buildTestApp,
  PATIENT,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
  type TestApp,
} from './helpers.js';
import { answerChecker } from './openapi-answers.js';

// biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field, each asserted
type Body = Record<string, any>;

const EXAMPLES = `${projectRoot}/pipelines/examples.yaml`;
const KEY = 'th_pipelines-quota-key-0123';
/** A second key, for the test that spends token-counter's rate limit. */
const RATE_KEY = 'th_pipelines-rate-key-01234';
const auth = { authorization: `Bearer ${KEY}` };

let app: TestApp;
let base = '';

beforeAll(async () => {
  await requireRedis();
  app = await buildTestApp(
    {
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      PIPELINES_FILE: EXAMPLES,
      API_KEYS_FILE: await apiKeysFile(
        [
          { id: 'k-pipe', key: KEY, tier: 'small' },
          { id: 'k-rate', key: RATE_KEY },
        ],
        {
          small: { multiplier: 1, quota: { runsPerDay: 1000 } },
        },
      ),
      // token-counter's rate limit is tight: the per-step counting test spends it.
      // schema-generator's results are cached: a step can be a cache hit like any run.
      POLICY_FILE: await policyFile({
        tools: {
          'token-counter': { limit: 4, burst: 0, windowSec: 3600 },
          'schema-generator': { cacheTtlSec: 600 },
        },
      }),
    },
    true,
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
};
const get = async (path: string) => {
  const res = await fetch(`${base}${path}`, { headers: auth });
  return { status: res.status, text: await res.text() };
};

const ID = 'llm-output-like-example';
const INPUT = {
  example: { city: 'Lisbon', temperatureC: 21.5, sunny: true },
  output: 'Sure:\n```json\n{"city": "Oslo", "temperatureC": "cold", "sunny": false}\n```',
};
/** The same pipeline, ad hoc: what the file defines, sent whole. */
const STEPS = [
  { toolId: 'schema-generator', mode: 'draft-07', input: { sample: { $from: '/input/example' } } },
  {
    toolId: 'structured-output-validator',
    mode: 'lenient',
    input: { schema: { $from: '/steps/0/result/schema' }, target: { $from: '/input/output' } },
  },
];

describe('a named pipeline on every door', () => {
  it('answers the same result on its route, the runtime, batch, a job, MCP and ad hoc', async () => {
    const dedicated = await post(`/api/pipelines/${ID}/`, INPUT);
    expect(dedicated.status).toBe(200);
    const result = dedicated.body.result;
    expect(result.valid).toBe(false);
    expect(result.errors[0].path).toBe('/temperatureC');
    expect(dedicated.body.runtime).toMatchObject({ toolId: ID, surface: 'dedicated', mode: 'run' });
    expect(dedicated.body.runtime.pipeline.runs).toBe(2);
    expect(dedicated.body.runtime.pipeline.steps.map((s: { toolId: string }) => s.toolId)).toEqual([
      'schema-generator',
      'structured-output-validator',
    ]);

    // The generic runtime: a and b carry the pipeline's first two inputs (example is JSON text there).
    const generic = { toolId: ID, input: { a: JSON.stringify(INPUT.example), b: INPUT.output } };
    const runtime = await post('/api/tools/run/', generic);
    expect(runtime.status).toBe(200);
    expect(runtime.body.result).toEqual(result);
    expect(runtime.body.runtime.surface).toBe('runtime');

    const batch = await post('/api/tools/batch/', { runs: [generic, generic] });
    expect(batch.status).toBe(200);
    for (const item of batch.body.results) {
      expect(item.result).toEqual(result);
      expect(item.rateLimit.runs).toBe(2);
    }

    const queued = await post('/api/jobs/', generic);
    expect(queued.status).toBe(202);
    const location = queued.headers.get('location')!;
    let job: Body = {};
    for (let i = 0; i < 1200 && !['succeeded', 'failed'].includes(job.state); i++) {
      job = JSON.parse((await get(location)).text);
      if (!['succeeded', 'failed'].includes(job.state)) await new Promise((r) => setTimeout(r, 50));
    }
    expect(job.state).toBe('succeeded');
    expect(job.answer.body.result).toEqual(result);
    expect(job.answer.body.runtime.surface).toBe('job');

    const client = new Client({ name: 'pipelines-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }),
    );
    try {
      const { tools } = await client.listTools();
      const listed = tools.find((t) => t.name === ID)!;
      expect(Object.keys(listed.inputSchema.properties ?? {}).sort()).toEqual(['example', 'mode', 'output']);
      expect(listed.outputSchema).toEqual(app.tools.get('structured-output-validator')!.def.output);
      // The SDK checks structuredContent against the listed outputSchema.
      const called = await client.callTool({ name: ID, arguments: INPUT });
      expect(called.isError).toBeFalsy();
      expect(called.structuredContent).toEqual(result);
    } finally {
      await client.close();
    }

    const adHoc = await post('/api/pipelines/run', { input: INPUT, steps: STEPS });
    expect(adHoc.status).toBe(200);
    expect(adHoc.body.result).toEqual(result);
    expect(adHoc.body.runtime).toMatchObject({ toolId: 'pipeline', surface: 'pipeline' });
  }, 120_000);

  it('is listed like a tool: skills index, descriptor, SKILL.md, OpenAPI and its page', async () => {
    const index = JSON.parse((await get('/api/skills-index.json')).text);
    expect(index.tools.map((t: { toolId: string }) => t.toolId)).toEqual(
      expect.arrayContaining(['sample-to-strict-schema', 'html-to-token-count', ID]),
    );
    const descriptor = JSON.parse((await get(`/api/tools/${ID}.json`)).text);
    expect(descriptor.tool.agentContract.dedicated_api.endpoints).toEqual([
      { method: 'POST', path: `/api/pipelines/${ID}/`, summary: 'Check LLM output against an example' },
    ]);
    // Both inputs are required, so the runtime's b is too: the contract says so.
    const params = descriptor.tool.agentContract.runtime.queryParams as { name: string; required: boolean }[];
    expect(params.filter((p) => ['a', 'b', 'c'].includes(p.name)).map((p) => p.required)).toEqual([
      true,
      true,
      false,
    ]);
    const skill = await get(`/skills/${ID}/SKILL.md`);
    expect(skill.status).toBe(200);
    expect(skill.text).toContain('1. `schema-generator` (mode `draft-07`): sample ← /input/example');
    const openapi = JSON.parse((await get('/api/openapi.json')).text);
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([`/api/pipelines/${ID}/`, '/api/pipelines/run']),
    );
    const page = await fetch(`${base}/tools/${ID}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Check LLM output against an example');
  });
});

describe('the OpenAPI document', () => {
  it('declares what the pipelines answer: a named one, an ad hoc one, a refused definition', async () => {
    const doc = JSON.parse((await get('/api/openapi.json')).text);
    const check = answerChecker(doc);
    const raw = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify(body),
      });
      return {
        statusCode: res.status,
        headers: { 'content-type': res.headers.get('content-type') },
        body: await res.text(),
      };
    };
    const named = await raw(`/api/pipelines/${ID}/`, INPUT);
    expect(named.statusCode).toBe(200);
    expect(check('POST', `/api/pipelines/${ID}/`, named)).toBeNull();
    const adHoc = await raw('/api/pipelines/run', { input: INPUT, steps: STEPS });
    expect(check('POST', '/api/pipelines/run', adHoc)).toBeNull();
    const refused = await raw('/api/pipelines/run', { steps: [{ toolId: 'nope', input: {} }] });
    expect(refused.statusCode).toBe(400);
    expect(check('POST', '/api/pipelines/run', refused)).toBeNull();
    const failed = await raw(`/api/pipelines/${ID}/`, { ...INPUT, example: '{not json' });
    expect(failed.statusCode).toBe(400);
    expect(check('POST', `/api/pipelines/${ID}/`, failed)).toBeNull();
  });
});

describe('limits, failures and bounds', () => {
  it('spends one run of each step under its own tool, and says so in the rate report', async () => {
    const rateKey = { authorization: `Bearer ${RATE_KEY}` };
    // token-counter allows 4 runs an hour here; each call of html-to-token-count spends one.
    const body = { html: '<p>hello <b>world</b></p>', model: 'gpt-4o' };
    const remaining: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post('/api/pipelines/html-to-token-count/', body, rateKey);
      expect(res.status).toBe(200);
      expect(res.body.rateLimit.runs).toBe(2);
      // The block is the step with the fewest left: token-counter's.
      remaining.push(res.body.rateLimit.remaining);
      expect(res.headers.get('ratelimit-policy')).toMatch(
        /"html-markdown".*"token-counter"|"token-counter".*"html-markdown"/,
      );
    }
    expect(remaining).toEqual([3, 2, 1, 0]);
    const refused = await post('/api/pipelines/html-to-token-count/', body, rateKey);
    expect(refused.status).toBe(429);
    expect(refused.body.errorCode).toBe('RATE_LIMITED');
    expect(refused.body.error).toMatch(/^step 1 \(token-counter\): /);
    expect(refused.body.runtime.pipeline.failedStep).toEqual({ index: 1, toolId: 'token-counter' });
    // The step before it ran, and its result comes back.
    expect(refused.body.runtime.pipeline.steps[0].result.output).toContain('**world**');
    expect(refused.body.rateLimit.runs).toBe(2);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it("caches a step's result like any run of its tool, and still spends the run", async () => {
    const input = { ...INPUT, example: { cached: true, n: 1 } };
    const first = await post(`/api/pipelines/${ID}/`, input);
    const again = await post(`/api/pipelines/${ID}/`, input);
    expect(again.body.result).toEqual(first.body.result);
    expect(first.body.runtime.pipeline.steps[0].cached).toBeUndefined();
    expect(again.body.runtime.pipeline.steps[0].cached).toBe(true);
    // structured-output-validator has no cache here: it ran again.
    expect(again.body.runtime.pipeline.steps[1].cached).toBeUndefined();
    expect(again.body.rateLimit.runs).toBe(2);
    // The answer as a whole is not a cache entry: no ETag, no Cache-Status.
    expect(again.headers.get('etag')).toBeNull();
    expect(again.headers.get('cache-status')).toBeNull();
  });

  it("counts each step against the key's quota", async () => {
    const usage = async () =>
      JSON.parse((await get('/api/usage')).text).quota.day.runs as { used: number; limit: number };
    const before = (await usage()).used;
    // An input no call has sent: neither step is a cache hit (a hit is not a run of the quota).
    const res = await post(`/api/pipelines/${ID}/`, { ...INPUT, example: { fresh: 'quota' } });
    expect(res.status).toBe(200);
    expect((await usage()).used).toBe(before + 2);
  });

  it('ends at a failing middle step with its error, its index and the results before it', async () => {
    const res = await post('/api/pipelines/run', {
      input: { html: '<h1>Title</h1>' },
      steps: [
        { toolId: 'html-markdown', mode: 'html-to-markdown', input: { input: { $from: '/input/html' } } },
        {
          toolId: 'regex-tester',
          input: { pattern: '(unclosed', text: { $from: '/steps/0/result/output' } },
        },
        { toolId: 'token-counter', input: { text: { $from: '/steps/0/result/output' } } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^step 1 \(regex-tester\): /);
    const { pipeline } = res.body.runtime;
    expect(pipeline.failedStep).toEqual({ index: 1, toolId: 'regex-tester' });
    expect(pipeline.runs).toBe(2);
    expect(pipeline.steps).toHaveLength(2);
    expect(pipeline.steps[0].result.output).toBe('# Title');
    expect(pipeline.steps[1].errorCode).toBe(res.body.errorCode);
  });

  it('refuses a definition that does not check, naming the step and the pointer, before any run', async () => {
    const res = await post('/api/pipelines/run', {
      input: { text: 'x' },
      steps: [
        { toolId: 'token-counter', input: { text: { $from: '/input/text' } } },
        { toolId: 'html-markdown', input: { input: { $from: '/steps/0/result/tokens' } } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('INVALID_INPUT');
    expect(res.body.error).toBe(
      'pipeline: step 1 (html-markdown) field input: /steps/0/result/tokens is integer; the field takes string',
    );
    const tooMany = await post('/api/pipelines/run', {
      steps: Array.from({ length: 11 }, () => ({ toolId: 'token-counter', input: { text: 'x' } })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/1 to 10 steps; this one has 11/);
    const unknown = await post('/api/pipelines/no-such/', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(
      /named: sample-to-strict-schema, html-to-token-count, llm-output-like-example/,
    );
  });
});

describe('a hostile client', () => {
  it('gets a 400 with a short message for junk, and the hub keeps answering', async () => {
    const junk: unknown[] = [
      [],
      'steps',
      { steps: 'x' },
      { steps: [] },
      { steps: Array.from({ length: 10_000 }, () => ({})) },
      { steps: [{ toolId: 'x'.repeat(100_000), input: {} }] },
      { steps: [{ toolId: 'token-counter', input: { text: { $from: 5 } } }] },
      { steps: [{ toolId: 'token-counter', input: { text: { $from: '/input/a', extra: 1 } } }] },
      { steps: [{ toolId: 'token-counter', input: { text: { $from: `/${'a/'.repeat(5000)}` } } }] },
      { steps: [{ toolId: 'token-counter', input: { text: 'x' } }], input: [] },
      { steps: [{ toolId: 'token-counter', input: { text: 'x' } }], other: 1 },
      { steps: [{ toolId: 'token-counter', input: { text: 'x' } }], source: 'nope' },
    ];
    for (const body of junk) {
      const res = await post('/api/pipelines/run', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.errorCode).toBe('INVALID_INPUT');
      expect(res.body.error.length).toBeLessThan(600);
    }
    // A literal nested 500 levels deep is a literal: the tool's schema refuses it, nothing breaks.
    let deep: unknown = 'x';
    for (let i = 0; i < 500; i++) deep = { a: deep };
    const nested = await post('/api/pipelines/run', {
      steps: [{ toolId: 'schema-generator', input: { sample: deep } }],
    });
    expect(nested.status).toBe(400);
    expect(
      (await post('/api/pipelines/run', { steps: [{ toolId: 'token-counter', input: { text: 'ok' } }] }))
        .status,
    ).toBe(200);
  });

  it('cannot spend more than its limits: ten steps of one tool are ten runs of it', async () => {
    const key = { authorization: `Bearer ${RATE_KEY}` };
    // RATE_KEY spent token-counter's 4 an hour above, or spends them here: either way no
    // pipeline gets a fifth run of it.
    const res = await post(
      '/api/pipelines/run',
      { steps: Array.from({ length: 10 }, () => ({ toolId: 'token-counter', input: { text: 'again' } })) },
      key,
    );
    expect(res.status).toBe(429);
    expect(res.body.runtime.pipeline.failedStep.index).toBeLessThanOrEqual(4);
  });
});

describe('the shipped examples', () => {
  it('sample-to-strict-schema: a YAML object becomes a strict schema OpenAI takes', async () => {
    const res = await post('/api/pipelines/sample-to-strict-schema/', {
      sample: 'city: Lisbon\nsunny: true\n',
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ valid: true, errorCount: 0, provider: 'openai-strict' });
  });

  it('html-to-token-count answers what the two tools called one after the other answer', async () => {
    const html = '<h2>Notes</h2><ul><li>one</li><li>two</li></ul>';
    const res = await post('/api/pipelines/html-to-token-count/', { html, model: 'llama-3.1-8b' });
    expect(res.status).toBe(200);
    const markdown = await post('/api/html-markdown/', { input: html, mode: 'html-to-markdown' });
    expect(markdown.status).toBe(200);
    const tokens = await post('/api/token-counter/', {
      text: markdown.body.result.output,
      model: 'llama-3.1-8b',
    });
    expect(tokens.status).toBe(200);
    expect(res.body.result).toEqual(tokens.body.result);
    expect(res.body.result).toMatchObject({ family: 'llama3', exact: true });
  });

  it('boots with the examples checked against the real tools', () => {
    expect(loadConfig({ PIPELINES_FILE: EXAMPLES }).env.PIPELINES_FILE).toBe(EXAMPLES);
    expect(app.pipelines.ids()).toEqual(['sample-to-strict-schema', 'html-to-token-count', ID]);
  });
});
