/**
 * Test helpers: the tool as the service runs it (`mock`: input through its schema first),
 * and the rule every schema answer keeps. Either the body validates against the
 * schema by a plain ajv (draft-07, or 2020-12 when the schema says so; ajv-formats for
 * formats), or a note says why (naming the keyword and its schema path), or the tool
 * refuses with INVALID_INPUT naming the keyword.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { expect } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

export const mock = toolRunner(tool, run);

const addFormats = ajvFormats.default as unknown as (ajv: unknown) => unknown;
const OPTIONS = { strict: false, allErrors: true, logger: false, ownProperties: true } as const;
const draft07 = new Ajv(OPTIONS);
const draft2020 = new Ajv2020(OPTIONS);
addFormats(draft07);
addFormats(draft2020);

export type Outcome =
  | { kind: 'valid'; body: unknown }
  | { kind: 'noted'; body: unknown; notes: string[] }
  | { kind: 'refused'; message: string };

/** Every key used anywhere in the schema: a refusal must name one of them. */
function keywordsIn(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node !== 'object' || node === null) return out;
  for (const [k, v] of Object.entries(node)) {
    if (!Array.isArray(node)) out.add(k);
    keywordsIn(v, out);
  }
  return out;
}

/** Runs the tool on the schema and checks the rule; returns which way it was kept. */
export async function outcome(schema: Record<string, unknown>, route?: string): Promise<Outcome> {
  const result = await mock({ response: schema, route }, 'fetch').catch((e: unknown) => e);
  if (result instanceof Error) {
    const { message } = await expectToolError(Promise.reject(result), 'INVALID_INPUT');
    const named = [...keywordsIn(schema)].filter((k) => message.includes(k));
    expect(named, message).not.toEqual([]);
    expect(message).toMatch(/schema at #|pattern|generate/);
    return { kind: 'refused', message };
  }
  const { body } = (result as Awaited<ReturnType<typeof run>>).response;
  const { notes, source } = result as Awaited<ReturnType<typeof run>>;
  expect(source).toBe('schema');
  // As the tool reads it: 2020-12 when `$schema` says so, or when it has none and uses prefixItems.
  const declared = schema.$schema;
  const is2020 =
    typeof declared === 'string'
      ? declared.includes('2020-12')
      : JSON.stringify(schema).includes('"prefixItems"');
  let validate: ReturnType<Ajv['compile']>;
  try {
    validate = (is2020 ? draft2020 : draft07).compile(schema);
  } catch {
    expect(notes.join(' ')).toMatch(/was not checked against the schema/);
    return { kind: 'noted', body, notes };
  }
  if (validate(body)) return notes.length === 0 ? { kind: 'valid', body } : { kind: 'noted', body, notes };
  const text = notes.join(' ');
  // The note quotes ajv's errors: at least one of the oracle's, with its keyword and schema path.
  const quoted = (validate.errors ?? []).filter((e) => text.includes(`${e.keyword} (${e.schemaPath})`));
  expect(
    quoted,
    `${JSON.stringify(body)} breaks the schema: ${JSON.stringify(validate.errors)}; notes: ${text}`,
  ).not.toEqual([]);
  return { kind: 'noted', body, notes };
}
