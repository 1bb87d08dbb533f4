/**
 * The new modes through the hub (built dist/ workers): the apply endpoint, the generic runtime,
 * the MCP tool's input schema, and refusals that stay 400 with a bounded message, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, mcpListedTool, type TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({}, true);
});
afterAll(async () => {
  await app?.close();
});

const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });

describe('structured-diff apply and merge-patch through the hub', () => {
  it('applies on its own endpoint, with a target', async () => {
    const res = await post('/api/structured-diff/apply/', {
      document: { a: 1 },
      patch: [{ op: 'add', path: '/b', value: 2 }],
      target: 'a: 1\nb: 2\n',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toEqual({
      result: { a: 1, b: 2 },
      patchFormat: 'json-patch',
      formats: { document: 'value', patch: 'value', target: 'yaml' },
      matchesTarget: true,
    });
    expect(res.json().runtime).toMatchObject({ mode: 'apply', surface: 'dedicated' });
  });

  it('runs merge-patch on the main endpoint and apply on the generic runtime', async () => {
    const diff = await post('/api/structured-diff/', {
      left: '{"a": 1}',
      right: '{"a": 2}',
      mode: 'merge-patch',
    });
    expect(diff.statusCode, diff.body).toBe(200);
    expect(diff.json().result).toMatchObject({ mergePatch: { a: 2 }, mergePatchLossless: true });
    const apply = await post('/api/tools/run/', {
      toolId: 'structured-diff',
      input: { a: '{"a": 1}', b: '{"a": null}', c: '{}', mode: 'apply' },
    });
    expect(apply.statusCode, apply.body).toBe(200);
    expect(apply.json().result).toMatchObject({
      result: {},
      patchFormat: 'merge-patch',
      matchesTarget: true,
    });
  });

  it('keeps apply off the main endpoint', async () => {
    const res = await post('/api/structured-diff/', { document: '{}', patch: '[]', mode: 'apply' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('UNSUPPORTED_OPTION');
  });

  it('answers a patch that does not apply with 400 INVALID_INPUT naming the operation', async () => {
    const failing = [
      [{ op: 'test', path: '/a', value: 2 }],
      [{ op: 'remove', path: '/missing' }],
      [{ op: 'add', path: '/__proto__/polluted', value: 1 }],
      [{ op: 'nope' }],
      'not a patch',
    ];
    for (const patch of failing) {
      const res = await post('/api/structured-diff/apply/', {
        document: { a: 1 },
        patch,
        patchFormat: 'json-patch',
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorCode).toBe('INVALID_INPUT');
      expect(res.json().error.length).toBeLessThan(400);
    }
    const copies: unknown[] = [{ op: 'add', path: '/a', value: 'x'.repeat(10_000) }];
    for (let i = 0; i < 30; i++) copies.push({ op: 'copy', from: '', path: `/c${i}` });
    const amplified = await post('/api/structured-diff/apply/', { document: {}, patch: copies });
    expect(amplified.statusCode, amplified.body).toBe(400);
    expect(amplified.json().error).toMatch(/^patch\[\d+\] \(copy at '\/c\d+'\): the result would be larger/);
  });

  it('shows the new fields in the MCP tool input schema', async () => {
    const tool = await mcpListedTool(app, 'structured-diff');
    const properties = tool.inputSchema.properties;
    for (const field of ['left', 'right', 'document', 'patch', 'target', 'patchFormat', 'mode'])
      expect(properties, field).toHaveProperty(field);
    expect(properties.mode?.enum).toEqual(['summary', 'patch', 'merge-patch', 'apply']);
    expect(tool.outputSchema?.properties).toHaveProperty('mergePatchLossless');
  });
});
