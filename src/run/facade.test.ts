import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, errorBody, getRun as get, policyFile, type TestApp } from '../../test/helpers.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The run facade (src/run/facade.ts): the operator's switches, through the app. */
describe('operator switches', () => {
  it('RUNTIME_ENABLED=false answers RUNTIME_DISABLED 503 on every surface', async () => {
    app = await buildTestApp({ RUNTIME_ENABLED: 'false' });
    for (const res of [await get(app, 'fx-echo', '1'), await app.inject({ url: '/api/fx-echo/?text=1' })]) {
      expect(res.statusCode).toBe(503);
      expect(errorBody(res).errorCode).toBe('RUNTIME_DISABLED');
    }
  });

  it('the policy file can switch every run off too', async () => {
    app = await buildTestApp({ POLICY_FILE: await policyFile({ runtimeEnabled: false }) });
    expect(errorBody(await get(app, 'fx-echo', '1')).errorCode).toBe('RUNTIME_DISABLED');
  });

  it('DISABLED_TOOLS answers TOOL_DISABLED 503 for that tool only', async () => {
    app = await buildTestApp({ DISABLED_TOOLS: 'fx-big, fx-throw' });
    const res = await get(app, 'fx-big', '1');
    expect(res.statusCode).toBe(503);
    expect(errorBody(res).errorCode).toBe('TOOL_DISABLED');
    expect((await get(app, 'fx-echo', '1')).statusCode).toBe(200);
  });

  it('runtimeSurface:false answers TOOL_WRONG_SURFACE 400 naming the dedicated path; the dedicated path works', async () => {
    app = await buildTestApp({
      POLICY_FILE: await policyFile({ tools: { 'fx-echo': { runtimeSurface: false } } }),
    });
    const res = await get(app, 'fx-echo', '1');
    expect(res.statusCode).toBe(400);
    const body = errorBody(res);
    expect(body.errorCode).toBe('TOOL_WRONG_SURFACE');
    expect(body.error).toContain('/api/fx-echo/');
    expect((await app.inject({ url: '/api/fx-echo/?text=1' })).statusCode).toBe(200);
  });
});
