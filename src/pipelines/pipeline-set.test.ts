import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownAjv } from '../ajv.js';
import { loadConfig } from '../config/index.js';
import { resolvePolicies } from '../config/policy.js';
import { projectRoot } from '../paths.js';
import { checkCrossReferences, type RegisteredTool, scanTools } from '../registry.js';
import { TOOL_SPEC_SCHEMA } from '../shared/tool-def-schema.js';
import { PipelineFileError, PipelineSet, type PipelineSources } from './pipeline-set.js';

let sources: Omit<PipelineSources, 'path'>;
beforeAll(async () => {
  const tools = await scanTools();
  const config = loadConfig({});
  const policies = resolvePolicies(
    [...tools.values()].map((t) => t.def),
    config.env,
    config.policyFile,
  );
  sources = { tools, policies, timeoutMs: 30_000 };
});

const dir = mkdtempSync(join(tmpdir(), 'toolhub-pipeline-set-'));
let n = 0;
function fileWith(text: string, ext = 'yaml'): string {
  const path = join(dir, `p${n++}.${ext}`);
  writeFileSync(path, text);
  return path;
}
const one = (id: string, extra: Record<string, unknown> = {}, steps: unknown[] = [count('/input/text')]) =>
  JSON.stringify({
    pipelines: [{ id, name: `Pipeline ${id}`, description: 'test', steps, ...extra }],
  });
const count = (pointer: string) => ({ toolId: 'token-counter', input: { text: { $from: pointer } } });

describe('the named pipelines file', () => {
  it('loads the shipped examples; each derived spec is a valid tool spec that cross-checks', () => {
    const set = new PipelineSet({ ...sources, path: join(projectRoot, 'pipelines', 'examples.yaml') });
    expect(set.load()).toEqual(['sample-to-strict-schema', 'html-to-token-count', 'llm-output-like-example']);
    expect(set.version).toBe(1);
    const validSpec = ownAjv({ allErrors: true }).compile(TOOL_SPEC_SCHEMA);
    for (const id of set.ids()) {
      const { def } = set.get(id)!.tool;
      expect(validSpec(def), JSON.stringify(validSpec.errors)).toBe(true);
    }
    // Related tools, field descriptions, modes and endpoints agree, as a tool's must.
    expect(() => checkCrossReferences(set.tools as Map<string, RegisteredTool>)).not.toThrow();
    const html = set.get('html-to-token-count')!;
    expect(html.tool.def.fields).toEqual({ a: 'html', b: 'model', c: null });
    expect(html.tool.def.output).toBe(sources.tools.get('token-counter')!.def.output);
    expect(html.policy.timeoutMs).toBe(30_000);
    expect(set.policies.get('html-to-token-count')).toBe(html.policy);
  });

  it('reads JSON too, and a pipeline input is validated (coerced) like a tool input', () => {
    const set = new PipelineSet({ ...sources, path: fileWith(one('p-json'), 'json') });
    set.load();
    const validate = set.validator('p-json')!;
    expect(validate({ text: 'hi' })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate({ text: 'hi', other: 1 })).toBe(false);
  });

  it.each([
    ['a YAML syntax error', 'pipelines: [', /cannot be read/],
    ['an unknown field', one('p', { colour: 'red' }), /pipelines\.0: unknown field "colour"/],
    ['a tool id', one('token-counter'), /\(token-counter\): the id is a tool's/],
    ['the reserved id run', one('run'), /"run" is POST \/api\/pipelines\/run's/],
    ['a bad id', one('Bad_Id'), /pipelines\.0\.id must match pattern/],
    [
      'no input field',
      one('p', {}, [{ toolId: 'token-counter', input: { text: 'fixed' } }]),
      /at least one \/input/,
    ],
    [
      'an input description nobody reads',
      one('p', { inputs: { other: 'x' } }),
      /inputs\.other: no step reads \/input\/other/,
    ],
    [
      'an example that does not fit',
      one('p', { example: {} }),
      /\(p\): example must have required property 'text'/,
    ],
    [
      'a step that does not check',
      one('p', {}, [count('/steps/0/result/tokens')]),
      /step 0 \(token-counter\) field text: \/steps\/0\/result\/tokens names step 0, which is not an earlier step/,
    ],
  ])('refuses %s with one line, and keeps the set it had', (_what, text, message) => {
    const good = fileWith(one('p-good'));
    const set = new PipelineSet({ ...sources, path: good });
    set.load();
    writeFileSync(good, text);
    let error: unknown;
    try {
      set.load();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PipelineFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message.startsWith(`PIPELINES_FILE ${good}: `)).toBe(true);
    expect(set.ids()).toEqual(['p-good']);
    expect(set.version).toBe(1);
  });

  it('refuses an id given twice', () => {
    const text = JSON.stringify({
      pipelines: [1, 2].map(() => ({
        id: 'twice',
        name: 'x',
        description: 'x',
        steps: [count('/input/text')],
      })),
    });
    const set = new PipelineSet({ ...sources, path: fileWith(text) });
    expect(() => set.load()).toThrow(/pipelines\[1\] \(twice\): the id is given twice/);
  });

  it('serves nothing when no file is named', () => {
    const set = new PipelineSet({ ...sources, path: null });
    expect(set.load()).toEqual([]);
    expect(set.tools).toBe(sources.tools);
  });
});
