import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionRequest, readExamples, readOptionExamples, stableResult } from '../src/docs/examples.js';
import { scanTools } from '../src/registry.js';
import { buildTestApp, type TestApp } from './helpers.js';

/** Every tool's examples run through the HTTP API and give what the files say. */
const tools = [...(await scanTools()).values()];
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({}, true);
});
afterAll(async () => {
  await app.close();
});

describe.each(tools.map((t) => [t.def.id, t] as const))('%s examples', (toolId, { def, docsDir }) => {
  const examples = readExamples(docsDir);

  it('basic.json returns expectedOutput.json', async () => {
    expect(examples.basic.toolId).toBe(toolId);
    const res = await app.inject({ method: 'POST', url: '/api/tools/run/', payload: examples.basic });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().result;
    expect(stableResult(def, result)).toEqual(stableResult(def, examples.expectedOutput));
    for (const field of def.volatileResultFields ?? []) expect(result).toHaveProperty(field);
  });

  it(`edgeCase.json: ${examples.edgeCase.description}`, async () => {
    const { request, expect: want } = examples.edgeCase;
    expect(request.toolId).toBe(toolId);
    const res = await app.inject({ method: 'POST', url: '/api/tools/run/', payload: request });
    expect(res.statusCode, res.body).toBe(want.status);
    if (want.errorCode) expect(res.json().errorCode).toBe(want.errorCode);
    if (want.result) expect(res.json().result).toMatchObject(want.result);
  });

  const options = readOptionExamples(docsDir);
  // Only tools with option examples get this test (no skipped tests for the others).
  if (options.length > 0)
    it('examples/options/*.json return their result', async () => {
      for (const [path, example] of options) {
        expect(example.request.toolId, path).toBe(toolId);
        expect(example.description, path).toBeTruthy();
        const res = await app.inject({ method: 'POST', ...optionRequest(example) });
        expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
        expect(example.result, `${path} has no result: run npm run examples`).toBeDefined();
        expect(stableResult(def, res.json().result), path).toEqual(stableResult(def, example.result ?? {}));
      }
    });
});
