import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExamples } from '../src/docs/examples.js';
import { type RegisteredTool, scanTools } from '../src/registry.js';
import type { JsonSchema, ToolSpec } from '../src/shared/tool-def.js';
import { ROUTE_METHODS } from '../tools/api-response-mocker/route.js';
import { FIELD_NAMES } from '../tools/cron-expression/cron-fields.js';
import { MAX_MATCHES, MAX_PARTS } from '../tools/regex-tester/matches.js';
import { MAX_CHANGES } from '../tools/structured-diff/run.js';
import { MAX_ERRORS } from '../tools/structured-output-validator/schema-compile.js';
import { ENCODINGS } from '../tools/token-counter/encoding-names.js';
import { buildTestApp, policyFile, type TestApp } from './helpers.js';
import { CASES, dedicatedRequest } from './tool-cases.js';

/**
 * Every tool's `output` (its MCP outputSchema) against real results: the examples and a
 * table of cases covering every mode, each run through the HTTP API. A result is checked
 * with draft-07 ajv (the dialect the schemas are written in) and with ajv's 2020-12 class,
 * which MCP clients use for a schema without `$schema`; both with ajv-formats, as they do.
 * The schemas must also have teeth: every declared field is seen in some result, and a
 * result with a required field dropped or an unknown field added is refused.
 */

// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv | Ajv2020) => unknown;
const options = { strict: false, allErrors: true } as const;
const draft07 = new Ajv(options);
const draft2020 = new Ajv2020(options);
addFormats(draft07);
addFormats(draft2020);

const tools = [...(await scanTools()).values()];

type Input = Record<string, unknown>;

let app: TestApp;
beforeAll(async () => {
  const file = await policyFile({
    tools: Object.fromEntries(tools.map(({ def }) => [def.id, { limit: 1_000_000, burst: 1000 }])),
  });
  app = await buildTestApp({ POLICY_FILE: file }, true);
});
afterAll(async () => {
  await app?.close();
});

const object = (value: unknown): Record<string, unknown> => value as Record<string, unknown>;
/** A part of a schema, by property names. */
const at = (schema: unknown, ...keys: string[]): unknown =>
  keys.reduce((node, key) => object(node)[key], schema);

/**
 * The ready request bodies of POST /api/tools/run/ among a tool's examples (every tool has
 * them: readExamples throws where one is missing): basic.json, and edgeCase.json's request.
 */
function exampleRequests(tool: RegisteredTool): [name: string, body: Input][] {
  const { basic, edgeCase } = readExamples(tool.docsDir);
  return [
    ['basic.json', basic],
    ['edgeCase.json', edgeCase.request],
  ];
}

interface Checked {
  validators: ValidateFunction[];
  /** Top-level fields seen in real results. */
  seen: Set<string>;
  /** One real result, to break on purpose. */
  sample?: Record<string, unknown>;
}
const checked = new Map<string, Checked>();

function validatorsOf(def: ToolSpec): Checked {
  let entry = checked.get(def.id);
  if (!entry) {
    const schema = def.output as JsonSchema;
    entry = { validators: [draft07.compile(schema), draft2020.compile(schema)], seen: new Set() };
    checked.set(def.id, entry);
  }
  return entry;
}

/** Every validator's problems with `result` (empty: it fits). */
function problems(def: ToolSpec, result: unknown): string[] {
  return validatorsOf(def).validators.flatMap((validate) =>
    validate(result) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`),
  );
}

/** Asserts that a real result fits the tool's output schema, and records its fields. */
function expectFits(def: ToolSpec, result: unknown, label: string): void {
  expect(problems(def, result), `${label}: ${JSON.stringify(result).slice(0, 600)}`).toEqual([]);
  const entry = validatorsOf(def);
  for (const key of Object.keys(object(result))) entry.seen.add(key);
  entry.sample ??= object(result);
}

async function post(url: string, body: Input) {
  return app.inject({ method: 'POST', url, payload: body });
}

/**
 * Fields a result carries only when the run meets its time budget, which no case can bring
 * about on every machine (a fast one finishes the search): their own tests force it
 * (cron-expression's `note`: tools/cron-expression/schedule.test.ts).
 */
const SITUATIONAL_FIELDS: Record<string, string[]> = { 'cron-expression': ['note'] };

describe('the case table', () => {
  it('names only registered tools, and covers every mode of each', () => {
    const ids = tools.map(({ def }) => def.id);
    for (const id of Object.keys(CASES)) expect(ids).toContain(id);
    for (const { def } of tools) {
      const cases = CASES[def.id];
      if (!cases) continue;
      expect(new Set(cases.map(([mode]) => mode)), def.id).toEqual(new Set(def.modes));
    }
  });
});

describe('enums and bounds agree with the code', () => {
  const output = (id: string) => tools.find(({ def }) => def.id === id)!.def.output;

  it('lists the same names as the implementations', () => {
    expect(at(output('token-counter'), 'properties', 'encoding', 'enum')).toEqual([...ENCODINGS]);
    expect(at(output('cron-expression'), 'properties', 'field', 'enum')).toEqual([...FIELD_NAMES, null]);
    expect(Object.keys(object(at(output('cron-expression'), 'properties', 'fields', 'properties')))).toEqual([
      ...FIELD_NAMES,
    ]);
    expect(at(output('api-response-mocker'), 'properties', 'route', 'properties', 'method', 'enum')).toEqual([
      ...ROUTE_METHODS,
    ]);
  });

  it('caps lists where the implementations cap them', () => {
    expect(at(output('regex-tester'), 'properties', 'matches', 'maxItems')).toBe(MAX_MATCHES);
    expect(at(output('regex-tester'), 'properties', 'parts', 'maxItems')).toBe(MAX_PARTS);
    expect(at(output('structured-diff'), 'properties', 'changes', 'maxItems')).toBe(MAX_CHANGES);
    expect(at(output('structured-output-validator'), 'properties', 'errors', 'maxItems')).toBe(MAX_ERRORS);
  });
});

describe.each(tools.map((t) => [t.def.id, t] as const))('%s output', (toolId, tool) => {
  const { def } = tool;
  const cases = CASES[toolId];
  const requests = exampleRequests(tool);

  it('is an object schema that compiles in both dialects, with a description per field', () => {
    const output = def.output as JsonSchema;
    expect(output.type).toBe('object');
    // Strict schema mode refuses unknown keywords, so a misspelt keyword cannot pass silently.
    const strict = { strict: false, strictSchema: true } as const;
    expect(() => new Ajv(strict).compile(output)).not.toThrow();
    expect(() => new Ajv2020(strict).compile(output)).not.toThrow();
    validatorsOf(def);
    const properties = object(output.properties);
    expect(Object.keys(properties).length).toBeGreaterThan(0);
    for (const [name, schema] of Object.entries(properties)) {
      expect(typeof object(schema).description, `${toolId}.${name} has no description`).toBe('string');
    }
    for (const name of (output.required as string[] | undefined) ?? [])
      expect(properties).toHaveProperty(name);
  });

  it('fits the documented example output', () => {
    expectFits(def, readExamples(tool.docsDir).expectedOutput, 'expectedOutput.json');
  });

  it.each(requests)('fits the result of %s', async (name, body) => {
    const res = await post('/api/tools/run/', body);
    if (res.statusCode >= 200 && res.statusCode < 300) expectFits(def, res.json().result, name);
    else expect(res.json().ok, res.body).toBe(false);
  });

  if (cases) {
    it.each(cases.map(([mode, input], i) => [`${mode} #${i + 1}`, mode, input] as const))(
      'fits the result of %s',
      async (label, mode, input) => {
        const { url, body } = dedicatedRequest(def, mode, input);
        const res = await post(url, body);
        expect(res.statusCode, res.body).toBe(200);
        expectFits(def, res.json().result, label);
      },
    );

    it('declares no field that no result carries', () => {
      const declared = Object.keys(object((def.output as JsonSchema).properties));
      const seen = validatorsOf(def).seen;
      const situational = SITUATIONAL_FIELDS[toolId] ?? [];
      expect(declared.filter((name) => !seen.has(name) && !situational.includes(name))).toEqual([]);
    });
  } else {
    // A tool the table does not know yet (a new one): each mode with its basic example's input.
    const basic = requests[0]![1];
    it.each(def.modes)('fits the result of mode %s with the basic example input', async (mode) => {
      const res = await post('/api/tools/run/', { ...basic, input: { ...object(basic.input), mode } });
      if (res.statusCode >= 200 && res.statusCode < 300) expectFits(def, res.json().result, mode);
    });
  }

  it('refuses a result with a required field dropped or an unknown field added', () => {
    const sample = validatorsOf(def).sample;
    expect(sample, `${toolId}: no real result was checked`).toBeDefined();
    const output = def.output as JsonSchema;
    // The fields required of every result, and those of the anyOf branches (modes) this result is of.
    const branches = ((output.anyOf as { required?: string[] }[] | undefined) ?? [])
      .map((branch) => branch.required ?? [])
      .filter((names) => names.every((name) => name in sample!));
    const required = [...((output.required as string[] | undefined) ?? []), ...branches.flat()];
    expect(required.length, `${toolId}: nothing is required`).toBeGreaterThan(0);
    for (const name of required) {
      const { [name]: _dropped, ...rest } = sample!;
      expect(problems(def, rest), `${toolId} without ${name}`).not.toEqual([]);
    }
    if (output.additionalProperties === false) {
      expect(problems(def, { ...sample, unexpectedField: 1 })).not.toEqual([]);
    }
  });
});
