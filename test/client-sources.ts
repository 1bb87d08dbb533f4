import type { ToolSpec } from '../src/shared/tool-def.js';
import type { DedicatedCall } from './dedicated-examples.js';

/** One call a generated client makes: the tool's basic example on its dedicated endpoint, and a result field to read. */
export interface ClientCall {
  call: DedicatedCall;
  operationId: string;
  /** A field of the result the example really returns, declared by the tool's result schema. */
  field: string;
}

/** The result field read back: one the schema requires if the example returns one, else its first. */
export function fieldToRead(def: ToolSpec, expected: Record<string, unknown>): string {
  const declared = Object.keys((def.output.properties ?? {}) as object);
  const required = new Set((def.output.required as string[] | undefined) ?? []);
  const present = Object.keys(expected).filter((k) => declared.includes(k) && expected[k] !== null);
  return present.find((k) => required.has(k)) ?? present[0]!;
}

/**
 * What each call proves to the compiler: the result field is typed (`Known` fails on
 * `unknown`, the type a bare `result: object` gives) and the result is closed (a field the
 * schema does not declare is an error, so `@ts-expect-error` holds).
 */
const PRELUDE = `type Known<T> = unknown extends T ? never : T;
const read: Record<string, unknown> = {};
`;

const literal = (value: unknown) => JSON.stringify(value);

/** A GET sends its query: scalars as they are (typed parameters), JSON values as JSON text. */
function query(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, v !== null && typeof v === 'object' ? JSON.stringify(v) : v]),
  );
}

function block(toolId: string, invoke: string, field: string): string {
  return `{
  const { data, error } = await ${invoke};
  if (!data) throw new Error(${literal(`${toolId}: `)} + JSON.stringify(error));
  const value: Known<typeof data.result.${field}> = data.result.${field};
  // @ts-expect-error a result has only the fields its schema declares
  void data.result.notAField;
  read[${literal(toolId)}] = value;
}
`;
}

/** openapi-typescript's `paths` (schema.d.ts) with openapi-fetch. */
export function openapiFetchSource(calls: ClientCall[]): string {
  const lines = calls.map(({ call, field }) => {
    const init =
      call.method === 'POST'
        ? `{ body: ${literal(call.body)} }`
        : `{ params: { query: ${literal(query(call.body))} } }`;
    return block(call.toolId, `client.${call.method}(${literal(call.path)}, ${init})`, field);
  });
  return `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({ baseUrl: process.env.HUB });
${PRELUDE}${lines.join('')}console.log(JSON.stringify(read));
`;
}

/** @hey-api/openapi-ts's SDK (hey/) with its fetch client, one function per operationId. */
export function heyApiSource(calls: ClientCall[]): string {
  const lines = calls.map(({ call, operationId, field }) => {
    const name = operationId[0]!.toLowerCase() + operationId.slice(1);
    const init =
      call.method === 'POST' ? `body: ${literal(call.body)}` : `query: ${literal(query(call.body))}`;
    return block(call.toolId, `sdk.${name}({ client, ${init} })`, field);
  });
  return `import { createClient } from './hey/client/index.js';
import * as sdk from './hey/sdk.gen.js';

const client = createClient({ baseUrl: process.env.HUB });
${PRELUDE}${lines.join('')}console.log(JSON.stringify(read));
`;
}

/** Strict TypeScript over one file and what it imports, as a client project would compile it. */
export function tsconfigFor(file: string): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
    files: [file],
  });
}
