import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, expandTool } from './expand-tool.js';
import type { ToolDefinition } from './tool-definition-schema.js';

/** The smallest definition: five fields. */
const minimal: ToolDefinition = {
  id: 'word-count',
  title: 'Word Count',
  description: 'Counts words.',
  input: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text' },
      locale: { type: 'string', description: 'A BCP 47 tag' },
    },
    required: ['text'],
  },
  output: { type: 'object' },
};

describe('expandTool: the spec derived from a definition', () => {
  it('fills what the author did not write with the documented defaults', () => {
    const spec = expandTool(minimal);
    expect(spec).toMatchObject({
      name: 'Word Count',
      category: 'devtools',
      riskClass: 'L',
      policy: DEFAULT_POLICY,
      modes: ['default'],
      modeField: 'mode',
      fields: { a: 'text', b: null, c: null },
      endpoints: [{ path: '/api/word-count/', methods: ['GET', 'POST'], summary: 'Word Count' }],
      faqs: [],
      howTo: [],
      relatedTools: [],
      keywords: [],
      deterministic: false,
    });
    // Field descriptions are written once, in the schema; the mode field's is generated.
    expect(spec.semanticFields).toEqual({
      text: 'The text',
      locale: 'A BCP 47 tag',
      mode: 'default (default)',
    });
    expect(spec).not.toHaveProperty('fieldsByMode');
    expect(spec).not.toHaveProperty('optionModes');
  });

  it('puts the first three required fields on a, b and c, in order', () => {
    const input = { ...minimal.input, required: ['locale', 'text'] };
    expect(expandTool({ ...minimal, input }).fields).toEqual({ a: 'locale', b: 'text', c: null });
    expect(expandTool({ ...minimal, slots: { b: 'locale' } }).fields).toEqual({
      a: null,
      b: 'locale',
      c: null,
    });
  });

  it('changes only the policy numbers the definition names', () => {
    const spec = expandTool({ ...minimal, policy: { timeoutMs: 500, riskClass: 'H' } });
    expect(spec.policy).toEqual({ ...DEFAULT_POLICY, timeoutMs: 500 });
    expect(spec.riskClass).toBe('H');
  });

  it('reads modes, their slots, options and paths from one shape', () => {
    const spec = expandTool({
      ...minimal,
      modes: {
        description: 'count or split',
        each: {
          count: { options: ['locale'] },
          split: { slots: { b: 'locale' }, path: 'split', summary: 'Split a text' },
          stats: { options: ['locale'], path: 'stats' },
        },
      },
    });
    expect(spec.modes).toEqual(['count', 'split', 'stats']);
    expect(spec.semanticFields.mode).toBe('count or split');
    expect(spec.fieldsByMode).toEqual({ split: { b: 'locale' } });
    expect(spec.optionModes).toEqual({ locale: ['count', 'stats'] });
    expect(spec.endpoints).toEqual([
      { path: '/api/word-count/', methods: ['GET', 'POST'], summary: 'Word Count' },
      { path: '/api/word-count/split/', methods: ['GET', 'POST'], summary: 'Split a text', mode: 'split' },
      {
        path: '/api/word-count/stats/',
        methods: ['GET', 'POST'],
        summary: 'Word Count: stats',
        mode: 'stats',
      },
    ]);
  });

  it('gives no main endpoint and no mode field description when each mode has its own path', () => {
    const spec = expandTool({
      ...minimal,
      modes: { field: null, each: { parse: { path: 'parse' }, build: { path: 'build' } } },
    });
    expect(spec.modeField).toBeNull();
    expect(spec.endpoints.map((e) => [e.path, e.mode])).toEqual([
      ['/api/word-count/parse/', 'parse'],
      ['/api/word-count/build/', 'build'],
    ]);
    expect(Object.keys(spec.semanticFields)).toEqual(['text', 'locale']);
  });

  it('lists the modes in the generated mode description, the first as the default', () => {
    const each = { a1: {}, b2: {}, c3: {} };
    expect(expandTool({ ...minimal, modes: { field: 'kind', each } }).semanticFields.kind).toBe(
      'a1 (default), b2 or c3',
    );
  });

  it('takes declared endpoints as they are, and the page content apart from the definition', () => {
    const endpoints = [{ path: '/api/wc/', methods: ['POST' as const], summary: 'Count' }];
    const page = {
      icon: 'text',
      keywords: ['words'],
      faqs: [{ question: 'Q?', answer: 'A.' }],
      hasApi: true,
    };
    const spec = expandTool({ ...minimal, endpoints, deterministic: { whenGiven: ['text'] } }, page);
    expect(spec.endpoints).toBe(endpoints);
    expect(spec).toMatchObject({
      icon: 'text',
      keywords: ['words'],
      hasApi: true,
      deterministic: { whenGiven: ['text'] },
    });
    expect(spec.faqs).toEqual(page.faqs);
  });
});
