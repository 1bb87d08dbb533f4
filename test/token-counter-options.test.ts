/**
 * token-counter's new inputs (issue 25) through the hub (dist/, as the service runs them):
 * the dedicated endpoint takes messages and expectedOutputTokens, and the MCP tool's
 * inputSchema declares them. (Here, not in tools/token-counter/: tools import only the kit.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, mcpListedTool, type TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({}, true);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('token-counter through the hub', () => {
  it('counts messages on the dedicated endpoint, and a Llama model with cost-free context', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/token-counter/',
      payload: {
        text: '',
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hello world' }],
        expectedOutputTokens: 10,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({
      tokens: 9,
      chatFormat: { rule: 'openai-cookbook' },
      contextWindow: 128_000,
      cost: { currency: 'USD', output: 0.0001 },
    });
    const llama = await app.inject({ url: '/api/token-counter/?text=Hello%20world!&model=llama-3.1-8b' });
    expect(llama.statusCode, llama.body).toBe(200);
    expect(llama.json().result).toMatchObject({
      tokens: 3,
      family: 'llama3',
      exact: true,
      contextWindow: 131_072,
    });
  });

  it('answers a bad messages value with INVALID_INPUT, an estimate in tokens mode with UNSUPPORTED_OPTION', async () => {
    const bad = await app.inject({ url: '/api/token-counter/?text=&messages=%5B1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('INVALID_INPUT');
    const tokens = await app.inject({
      url: '/api/token-counter/?text=hi&model=claude-3-haiku-20240307&mode=tokens',
    });
    expect(tokens.statusCode).toBe(400);
    expect(tokens.json().errorCode).toBe('UNSUPPORTED_OPTION');
  });

  it("declares messages and expectedOutputTokens in the MCP tool's inputSchema", async () => {
    const tool = await mcpListedTool(app, 'token-counter');
    expect(Object.keys(tool.inputSchema.properties)).toEqual(
      expect.arrayContaining(['text', 'model', 'limit', 'mode', 'messages', 'expectedOutputTokens']),
    );
    expect(tool.outputSchema?.properties).toHaveProperty('cost');
  });
});
