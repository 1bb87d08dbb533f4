import { beforeAll, describe, expect, it } from 'vitest';
import { scanTools } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def-schema.js';
import { checkPipeline, PIPELINE_MAX_STEPS, PipelineDefinitionError, pointerSegments } from './check.js';

let toolOf: (id: string) => ToolSpec | undefined;
beforeAll(async () => {
  const tools = await scanTools();
  toolOf = (id) => tools.get(id)?.def;
});

/** CSV → JSON → a JSON Schema → its lint for OpenAI's strict mode: the example. */
const CSV_TO_STRICT_SCHEMA = {
  steps: [
    { toolId: 'format-detective', mode: 'convert', input: { input: { $from: '/input/csv' }, to: 'json' } },
    { toolId: 'schema-generator', mode: 'strict', input: { sample: { $from: '/steps/0/result/output' } } },
    {
      toolId: 'structured-output-validator',
      mode: 'schema',
      input: { schema: { $from: '/steps/1/result/schema' }, provider: 'openai-strict' },
    },
  ],
};

/** The refusal of a definition: its message, step and pointer. */
function refusal(definition: unknown): PipelineDefinitionError {
  try {
    checkPipeline(definition, toolOf);
  } catch (err) {
    if (err instanceof PipelineDefinitionError) return err;
    throw err;
  }
  throw new Error('the definition was accepted');
}

const step = (toolId: string, input: Record<string, unknown>, mode?: string) => ({
  toolId,
  ...(mode ? { mode } : {}),
  input,
});

describe('checkPipeline', () => {
  it('accepts typed wiring, and derives the input schema (the unbound fields) and the output schema', () => {
    const p = checkPipeline(CSV_TO_STRICT_SCHEMA, toolOf);
    expect(p.steps.map((s) => s.toolId)).toEqual([
      'format-detective',
      'schema-generator',
      'structured-output-validator',
    ]);
    expect(p.inputSchema).toMatchObject({
      type: 'object',
      properties: { csv: { type: 'string' } },
      required: ['csv'],
      additionalProperties: false,
    });
    expect(p.outputSchema).toBe(toolOf('structured-output-validator')!.output);
  });

  it('lets an integer feed a number, and one input feed two fields of the same type', () => {
    const p = checkPipeline(
      {
        steps: [
          step('html-markdown', { input: { $from: '/input/doc' } }),
          step('token-counter', { text: { $from: '/steps/0/result/output' }, limit: 100 }),
          step('html-markdown', { input: { $from: '/input/doc' } }, 'markdown-to-html'),
        ],
      },
      toolOf,
    );
    expect(Object.keys(p.inputSchema.properties as object)).toEqual(['doc']);
  });

  it('refuses a pointer whose type does not fit the field, naming the step, the pointer and both types', () => {
    const e = refusal({
      steps: [
        step('html-markdown', { input: { $from: '/input/html' } }),
        step('token-counter', { text: { $from: '/steps/0/result/stats/inputChars' } }),
      ],
    });
    expect(e.step).toBe(1);
    expect(e.pointer).toBe('/steps/0/result/stats/inputChars');
    expect(e.message).toBe(
      'step 1 (token-counter) field text: /steps/0/result/stats/inputChars is integer; the field takes string',
    );
  });

  it('refuses a pointer to a member the earlier step does not declare', () => {
    const e = refusal({
      steps: [
        step('html-markdown', { input: { $from: '/input/html' } }),
        step('token-counter', { text: { $from: '/steps/0/result/markdown' } }),
      ],
    });
    expect(e.message).toBe(
      'step 1 (token-counter) field text: /steps/0/result/markdown names nothing step 0 (html-markdown) declares in its output schema',
    );
  });

  it('refuses a pointer to the same or a later step, and one that is not a pointer into input or steps', () => {
    expect(
      refusal({ steps: [step('html-markdown', { input: { $from: '/steps/0/result/output' } })] }).message,
    ).toBe(
      'step 0 (html-markdown) field input: /steps/0/result/output names step 0, which is not an earlier step',
    );
    for (const bad of [
      'steps/0/result/output',
      '/steps/x/result',
      '/steps/0/output',
      '/input',
      '/input/a/b',
      '/other',
    ]) {
      const e = refusal({
        steps: [
          step('html-markdown', { input: { $from: '/input/html' } }),
          step('token-counter', { text: { $from: bad } }),
        ],
      });
      expect(e.message, bad).toContain('is neither /input/<name> nor /steps/<k>/result/…');
      expect(e.pointer).toBe(bad);
    }
  });

  it('refuses one input feeding fields of different types', () => {
    const e = refusal({
      steps: [step('token-counter', { text: { $from: '/input/x' }, limit: { $from: '/input/x' } })],
    });
    expect(e.message).toBe(
      'step 0 (token-counter) field limit: /input/x feeds a field that takes integer, and step 0 field text one that takes string',
    );
  });

  it('refuses an unknown tool, a mode it lacks, a field it does not take, a missing required field, a literal of the wrong type', () => {
    expect(refusal({ steps: [step('nope', {})] }).message).toBe('step 0: unknown toolId "nope"');
    expect(refusal({ steps: [step('html-markdown', { input: 'x' }, 'pdf')] }).message).toBe(
      'step 0 (html-markdown): mode "pdf" is not one of html-to-markdown, markdown-to-html',
    );
    expect(refusal({ steps: [step('html-markdown', { input: 'x', html: 'y' })] }).message).toBe(
      'step 0 (html-markdown): it takes no field "html"; it takes input',
    );
    expect(refusal({ steps: [step('html-markdown', {})] }).message).toBe(
      'step 0 (html-markdown): the input lacks input',
    );
    expect(refusal({ steps: [step('token-counter', { text: 'x', limit: 'ten' })] }).message).toBe(
      'step 0 (token-counter) field limit: the literal is string; the field takes integer',
    );
    expect(refusal({ steps: [step('token-counter', { text: { $from: '/input/t', x: 1 } })] }).message).toBe(
      'step 0 (token-counter) field text: {"$from"} holds one pointer string and nothing else',
    );
  });

  it('refuses a definition that is not a list of 1 to PIPELINE_MAX_STEPS steps', () => {
    expect(refusal(null).step).toBeNull();
    expect(refusal({ steps: [] }).message).toBe(
      `a pipeline has 1 to ${PIPELINE_MAX_STEPS} steps; this one has 0`,
    );
    const many = Array.from({ length: PIPELINE_MAX_STEPS + 1 }, () => step('token-counter', { text: 'x' }));
    expect(refusal({ steps: many }).message).toContain(`this one has ${PIPELINE_MAX_STEPS + 1}`);
    expect(refusal({ steps: [{ toolId: 'token-counter' }] }).message).toBe(
      'step 0: a step is {"toolId", "mode"?, "input": {…}}',
    );
  });

  it('cuts what it echoes of a hostile definition', () => {
    const e = refusal({ steps: [step('x'.repeat(10_000), {})] });
    expect(e.message.length).toBeLessThan(120);
  });
});

describe('pointerSegments', () => {
  it('reads RFC 6901 pointers, escapes included', () => {
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/steps/0/result/a~1b/c~0d')).toEqual(['steps', '0', 'result', 'a/b', 'c~d']);
    expect(pointerSegments('steps/0')).toBeNull();
  });
});
