/**
 * qr-code (tools/qr-code/): the print options through the hub (built tools in dist/, real
 * workers): on the dedicated endpoint (GET and POST), on the generic runtime, in the MCP
 * tool's schemas and in the tool page's form; refusals keep their codes there too. Here, not
 * in the tool's folder: a tool's files may import only #tool-kit (npm run check:imports).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpTools } from '../src/mcp/tools.js';
import { buildTestApp, errorBody, type TestApp } from './helpers.js';

const NEW_FIELDS = ['margin', 'dark', 'light', 'logo', 'decodeCheck'];

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({}, true);
});
afterAll(async () => {
  await app?.close();
});

describe('qr-code print options through the hub', () => {
  it('GET and POST on /api/qr-code/ and the generic runtime take them and agree', async () => {
    const fields = {
      data: 'https://example.com/',
      format: 'png',
      size: 300,
      margin: 2,
      dark: '#1a237e',
      light: '#fff8e1',
      logo: 0.2,
      errorCorrection: 'L',
    };
    const query = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));
    const get = await app.inject({ url: `/api/qr-code/?${query}` });
    expect(get.statusCode, get.body).toBe(200);
    const result = get.json().result;
    expect(result).toMatchObject({
      format: 'png',
      margin: 2,
      dark: '#1a237e',
      light: '#fff8e1',
      errorCorrection: 'H',
      errorCorrectionRaised: true,
      logoArea: { fraction: 0.2 },
      decodeCheck: { decoded: true, matches: true, source: 'png' },
    });
    const post = await app.inject({ method: 'POST', url: '/api/qr-code/', payload: fields });
    expect(post.json().result).toEqual(result);
    const { data, errorCorrection, size, format, ...named } = fields;
    const generic = await app.inject({
      method: 'POST',
      url: '/api/tools/run/',
      payload: {
        toolId: 'qr-code',
        input: { a: data, b: errorCorrection, c: String(size), mode: format, options: named },
      },
    });
    expect(generic.statusCode, generic.body).toBe(200);
    expect(generic.json().result).toEqual(result);
  });

  it.each([
    [{ dark: '#fff', light: '#000' }, 'INVALID_INPUT', 'lighter than light'],
    [{ dark: 'navy' }, 'INVALID_INPUT', 'not a hex colour'],
    [{ logo: 0.5 }, 'INVALID_INPUT', 'logo must be <= 0.3'],
    [{ margin: 17 }, 'INVALID_INPUT', 'margin must be <= 16'],
    [{ decodeCheck: 'never' }, 'UNSUPPORTED_OPTION', 'require, report, off'],
    [
      { data: 'x'.repeat(2000), logo: 0.3, errorCorrection: 'L' },
      'INVALID_INPUT',
      'needs error-correction level Q',
    ],
  ])('refuses %j with %s', async (bad, code, message) => {
    const res = await app.inject({ method: 'POST', url: '/api/qr-code/', payload: { data: 'hi', ...bad } });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorBody(res)).toMatchObject({ errorCode: code, error: expect.stringContaining(message) });
  });

  it("shows the options in the MCP tool's input and output schemas and in the page form", async () => {
    const mcp = mcpTools(app.tools).find((t) => t.name === 'qr-code')!;
    const input = mcp.inputSchema.properties as Record<string, { default?: unknown }>;
    for (const field of NEW_FIELDS) expect(input, field).toHaveProperty(field);
    expect(input.margin!.default).toBe(4);
    expect(input.decodeCheck!.default).toBe('require');
    const output = mcp.outputSchema!.properties as Record<string, unknown>;
    for (const field of ['errorCorrectionRaised', 'logoArea', 'decodeCheck', 'contrast']) {
      expect(output, field).toHaveProperty(field);
    }
    const page = (await app.inject({ url: '/tools/qr-code/' })).body;
    for (const field of NEW_FIELDS) expect(page).toContain(`name="${field}"`);
  });
});
