import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ERROR_CODES, ERROR_TABLE } from '../src/errors.js';
import { projectRoot } from '../src/paths.js';
import { buildTestApp, errorBody, policyFile, type TestApp } from './helpers.js';

let app: TestApp;
let openapi: Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(ajvFormats.default as unknown as (a: Ajv2020) => void)(ajv);

/** Checks a real response body against the schema the OpenAPI document declares for it. */
function conforms(schemaName: string, body: unknown): void {
  const validate = ajv.getSchema(`openapi#/components/schemas/${schemaName}`)!;
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

beforeAll(async () => {
  app = await buildTestApp({ PUBLIC_BASE_URL: 'https://hub.example.com' }, true);
  openapi = (await app.inject({ url: '/api/openapi.json' })).json();
  ajv.addSchema({ ...openapi, $id: 'openapi' });
});
afterAll(async () => {
  await app.close();
});

describe('skills index and bundle', () => {
  it('serve the spec shapes for every tool of the registry', async () => {
    const index = (await app.inject({ url: '/api/skills-index.json' })).json();
    conforms('SkillsIndex', index);
    expect(index.toolCount).toBe(app.tools.size);
    expect(index.tools.map((t: { toolId: string }) => t.toolId)).toEqual([...app.tools.keys()].sort());
    expect(index.commonFiles).toEqual([
      '/skills/common/error-handling.md',
      '/skills/common/invocation-patterns.md',
      '/skills/common/safety-defaults.md',
    ]);
    const bundle = (await app.inject({ url: '/api/skills-bundle.json' })).json();
    conforms('SkillsBundle', bundle);
    expect(bundle.toolCount).toBe(app.tools.size);
    expect(bundle.generatedAt).toBe(index.generatedAt);
    const validator = bundle.tools.find(
      (t: { toolId: string }) => t.toolId === 'structured-output-validator',
    );
    expect(validator).toMatchObject({ riskClass: 'M', remoteCallable: true, remoteMode: 'dedicated_api' });
    expect(validator.files.skillMd).toContain('name: structured-output-validator');
    expect(validator.files.examples.basic.toolId).toBe('structured-output-validator');
  });

  it('answer a matching If-None-Match with 304', async () => {
    for (const url of [
      '/api/skills-index.json',
      '/api/skills-bundle.json',
      '/api/tools/qr-code.json',
      '/api/openapi.yaml',
    ]) {
      const first = await app.inject({ url });
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
      const again = await app.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect((await app.inject({ url, headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
    }
  });

  it('serve every SKILL.md and common file as text/markdown', async () => {
    for (const url of [...app.tools.keys()]
      .map((id) => `/skills/${id}/SKILL.md`)
      .concat('/skills/common/error-handling.md')) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    }
    expect(errorBody(await app.inject({ url: '/skills/nope/SKILL.md' })).errorCode).toBe('INVALID_INPUT');
  });
});

describe('tool descriptors', () => {
  it('fill every field of the ToolDescriptor schema and use one number everywhere a policy value appears', async () => {
    for (const [id, { def }] of app.tools) {
      const res = await app.inject({ url: `/api/tools/${id}.json` });
      const { tool } = res.json();
      conforms('ToolDescriptor', res.json());
      const policy = app.policies.get(id)!;
      const c = tool.agentContract;
      expect(tool.url).toBe(`/tools/${id}/`);
      expect(c.contractVersion).toBe('2.0.0');
      expect(
        new Set([
          tool.maxInputBytes,
          c.max_input_bytes,
          c.dedicated_api.inputMaxBytes,
          c.runtime.policy.inputMaxBytes,
        ]),
      ).toEqual(new Set([policy.inputMaxBytes]));
      expect(
        new Set([tool.timeoutMs, c.timeout_ms, c.dedicated_api.timeoutMs, c.runtime.policy.timeoutMs]),
      ).toEqual(new Set([policy.timeoutMs]));
      expect(
        new Set([tool.riskClass, c.risk_class, c.dedicated_api.riskClass, c.runtime.policy.riskClass]),
      ).toEqual(new Set([def.riskClass]));
      expect(c.dedicated_api).toMatchObject({
        baseUrl: 'https://hub.example.com',
        openapiUrl: 'https://hub.example.com/api/openapi.yaml',
      });
      expect(c.runtime).toMatchObject({ endpoint: '/api/tools/run/', methods: ['GET', 'POST'] });
      expect(
        c.runtime.queryParams
          .filter((p: { required: boolean }) => p.required)
          .map((p: { name: string }) => p.name),
      ).toEqual(['toolId', 'a']);
      expect(c.runtime.policy).toMatchObject({
        cacheTtlSec: 0,
        networkEnabled: false,
        supportsStreaming: false,
      });
      expect(Object.keys(c.semantic_fields).length).toBeGreaterThan(0);
      expect(tool.faqs.length + tool.howTo.length + tool.keywords.length + tool.tags.length).toBeGreaterThan(
        4,
      );
      for (const rel of tool.relatedTools) expect(app.tools.has(rel.id)).toBe(true);
    }
    const validator = (await app.inject({ url: '/api/tools/structured-output-validator.json' })).json().tool;
    expect(Object.keys(validator.agentContract.semantic_fields)).toEqual(
      expect.arrayContaining(['schema', 'target']),
    );
    expect(validator.agentContract.dedicated_api.endpoints).toEqual([
      { method: 'POST', path: '/api/schema-validator/', summary: expect.any(String) },
    ]);
  });

  it('show operator overrides', async () => {
    const file = await policyFile({
      tools: { 'qr-code': { timeoutMs: 750, inputMaxBytes: 2048 } },
      runtimeEnabled: true,
    });
    const custom = await buildTestApp({ POLICY_FILE: file, DISABLED_TOOLS: 'regex-tester' }, true);
    try {
      const qr = (await custom.inject({ url: '/api/tools/qr-code.json' })).json().tool;
      expect([qr.timeoutMs, qr.agentContract.timeout_ms, qr.agentContract.runtime.policy.timeoutMs]).toEqual([
        750, 750, 750,
      ]);
      expect(qr.maxInputBytes).toBe(2048);
      const regex = (await custom.inject({ url: '/api/tools/regex-tester.json' })).json().tool;
      expect(regex.remoteCallable).toBe(false);
      const index = (await custom.inject({ url: '/api/skills-index.json' })).json();
      expect(index.tools.find((t: { toolId: string }) => t.toolId === 'regex-tester').remoteCallable).toBe(
        false,
      );
    } finally {
      await custom.close();
    }
  });
});

describe('OpenAPI document', () => {
  it("is a valid OpenAPI 3.1 document, package.json's version, with the same content as YAML", async () => {
    const result = await new Validator().validate(structuredClone(openapi));
    expect(result.valid, JSON.stringify(result.errors)).toBe(true);
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    expect(openapi).toMatchObject({ openapi: '3.1.0', info: { version: pkg.version } });
    const yaml = await app.inject({ url: '/api/openapi.yaml' });
    expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(parseYaml(yaml.body)).toEqual(openapi);
  });

  it('describes every route: runtime, each dedicated endpoint with its methods, catalogue, health, metrics', () => {
    const paths = openapi.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/api/tools/run/']!).sort()).toEqual(['get', 'post']);
    for (const { def } of app.tools.values()) {
      for (const ep of def.endpoints) {
        expect(Object.keys(paths[ep.path] ?? {}).sort(), ep.path).toEqual(
          ep.methods.map((m) => m.toLowerCase()).sort(),
        );
      }
    }
    for (const p of [
      '/api/skills-index.json',
      '/api/skills-bundle.json',
      '/api/tools/{toolId}.json',
      '/api/openapi.json',
      '/healthz',
      '/readyz',
      '/metrics',
    ]) {
      expect(paths[p], p).toBeDefined();
    }
  });

  it('carries the error table and the rate-limit headers from the code', () => {
    const codes = openapi['x-error-codes'] as { code: string; status: number[] }[];
    expect(codes.map((c) => c.code)).toEqual(ERROR_CODES);
    for (const c of codes) {
      const e = ERROR_TABLE[c.code as keyof typeof ERROR_TABLE];
      expect(c.status).toEqual([e.status, ...e.otherStatuses]);
    }
    const responses = (openapi.components as { responses: Record<string, { headers: object }> }).responses;
    for (const status of [400, 404, 405, 413, 415, 429, 500, 503, 504])
      expect(responses[`Error${status}`], String(status)).toBeDefined();
    expect(Object.keys(responses.Error429!.headers)).toEqual(
      expect.arrayContaining(['RateLimit', 'RateLimit-Policy', 'Retry-After']),
    );
    const op = (openapi.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[
      '/api/token-counter/'
    ]!.post!;
    expect(Object.keys(op.responses)).toEqual(
      expect.arrayContaining(['200', '400', '413', '429', '503', '504']),
    );
  });

  it('declares request schemas that are the ones validating requests', () => {
    // Request bodies are components.requestBodies (src/catalogue/openapi-tools.ts says why).
    const bodies = (
      openapi.components as {
        requestBodies: Record<string, { content: Record<string, { schema: { properties: object } }> }>;
      }
    ).requestBodies;
    const qr = bodies.QrCodeInput!.content['application/json']!.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(qr.properties).sort()).toEqual([
      'dark',
      'data',
      'decodeCheck',
      'errorCorrection',
      'format',
      'light',
      'logo',
      'margin',
      'size',
    ]);
    expect(qr.properties.format).toMatchObject({ enum: ['svg', 'png', 'utf8'], default: 'svg' });
    expect(bodies.ColorPaletteConvertInput).toBeDefined();
    const validate = ajv.getSchema('openapi#/components/schemas/RuntimeRequestNested')!;
    expect(validate({ toolId: 'qr-code', input: { a: 'x' } })).toBe(true);
    expect(validate({ toolId: 'qr-code', input: { z: 'x' } })).toBe(false);
  });

  it('matches the health answers', async () => {
    conforms('Health', (await app.inject({ url: '/healthz' })).json());
    conforms('Readiness', (await app.inject({ url: '/readyz' })).json());
  });

  it('matches real answers: success, error and rate-limited', async () => {
    const ok = await app.inject({ url: '/api/tools/run?toolId=token-counter&a=hi' });
    conforms('TokenCounterRunSuccess', ok.json());
    const bad = await app.inject({ url: '/api/tools/run?toolId=token-counter&a=hi&mode=nope' });
    conforms('ToolRunError', bad.json());
    const file = await policyFile({ tools: { 'qr-code': { limit: 1, burst: 0 } } });
    const tight = await buildTestApp({ POLICY_FILE: file }, true);
    try {
      await tight.inject({ url: '/api/qr-code/?data=a' });
      const limited = await tight.inject({ url: '/api/qr-code/?data=a' });
      expect(limited.statusCode).toBe(429);
      conforms('ToolRunError', limited.json());
      conforms('RateLimit', limited.json().rateLimit);
    } finally {
      await tight.close();
    }
  });

  it('is browsable at /docs', async () => {
    const res = await app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Swagger UI');
  });
});

describe('adding a tool is adding a folder', () => {
  it('a fixture tool folder appears in the index, bundle, descriptors, OpenAPI and routes', async () => {
    const { FIXTURE_TOOLS } = await import('./helpers.js');
    const fixtureCount = (await import('node:fs')).readdirSync(FIXTURE_TOOLS).length;
    const withFixtures = await buildTestApp({ EXTRA_TOOL_DIRS: FIXTURE_TOOLS }, true);
    try {
      const index = (await withFixtures.inject({ url: '/api/skills-index.json' })).json();
      expect(index.tools.map((t: { toolId: string }) => t.toolId)).toContain('fx-echo');
      expect(index.toolCount).toBe(app.tools.size + fixtureCount);
      const bundle = (await withFixtures.inject({ url: '/api/skills-bundle.json' })).json();
      expect(bundle.tools.find((t: { toolId: string }) => t.toolId === 'fx-echo').files.skillMd).toContain(
        'Fixture fx-echo',
      );
      expect(
        (await withFixtures.inject({ url: '/api/tools/fx-echo.json' })).json().tool.agentContract.toolId,
      ).toBe('fx-echo');
      const doc = (await withFixtures.inject({ url: '/api/openapi.json' })).json();
      expect(Object.keys(doc.paths)).toContain('/api/fx-echo/');
      expect(
        doc.components.requestBodies.FxEchoInput.content['application/json'].schema.properties,
      ).toHaveProperty('suffix');
      expect((await withFixtures.inject({ url: '/api/fx-echo/?text=hey' })).json().result.text).toBe('hey');
    } finally {
      await withFixtures.close();
    }
  });
});
