import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolSpec } from '../shared/tool-def.js';

/**
 * The example files of a tool (docs/tools.md): `basic.json` is a ready body for
 * POST /api/tools/run/; `edgeCase.json` is `{description, request, expect}` where
 * `expect` is `{status, errorCode}` or `{status: 200, result}` (a subset of the result);
 * `expectedOutput.json` is what running `basic` really returns as `result`.
 */
export interface ToolExamples {
  basic: Record<string, unknown>;
  edgeCase: { description: string; request: Record<string, unknown>; expect: EdgeExpectation };
  expectedOutput: Record<string, unknown>;
}

export interface EdgeExpectation {
  status: number;
  errorCode?: string;
  result?: Record<string, unknown>;
}

export const EXAMPLE_NAMES = ['basic', 'edgeCase', 'expectedOutput'] as const;

/** An example file of the tool whose documents are in `docsDir` (RegisteredTool.docsDir). */
export function examplePath(docsDir: string, name: (typeof EXAMPLE_NAMES)[number]): string {
  return join(docsDir, 'examples', `${name}.json`);
}

export function readExamples(docsDir: string): ToolExamples {
  const read = (name: (typeof EXAMPLE_NAMES)[number]) => {
    const path = examplePath(docsDir, name);
    if (!existsSync(path)) throw new Error(`${path} is missing`);
    return JSON.parse(readFileSync(path, 'utf8'));
  };
  return { basic: read('basic'), edgeCase: read('edgeCase'), expectedOutput: read('expectedOutput') };
}

/**
 * An example of one option (docs/tools.md): `examples/options/<name>.json` holds
 * `{description, request, result}`, where `request` is a body for POST /api/tools/run/ and
 * `result` is what it really returns (`npm run examples` writes it; test/examples.test.ts
 * checks it stays true). A tool shows each of its options this way, beside `basic.json`.
 * An example may show the option on the tool's dedicated endpoint instead (the runtime takes
 * it in `input.options`, docs/api.md "Options"): `path` names the endpoint and
 * `request.input` is then its JSON body.
 */
export interface OptionExample {
  description: string;
  request: Record<string, unknown>;
  path?: string;
  result?: Record<string, unknown>;
}

/** Where an option example is sent, and its body: the generic runtime, or `path` with the named fields. */
export function optionRequest(example: OptionExample): { url: string; payload: Record<string, unknown> } {
  return example.path
    ? { url: example.path, payload: example.request.input as Record<string, unknown> }
    : { url: '/api/tools/run/', payload: example.request };
}

/** The option examples of a tool, as [path, example], in file-name order (none: []). */
export function readOptionExamples(docsDir: string): Array<[string, OptionExample]> {
  const dir = join(docsDir, 'examples', 'options');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const path = join(dir, name);
      return [path, JSON.parse(readFileSync(path, 'utf8')) as OptionExample];
    });
}

/** The result without the fields that move with the clock. */
export function stableResult(def: ToolSpec, result: Record<string, unknown>): Record<string, unknown> {
  const volatile = new Set(def.volatileResultFields ?? []);
  return Object.fromEntries(Object.entries(result).filter(([k]) => !volatile.has(k)));
}
