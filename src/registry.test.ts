import { describe, expect, it } from 'vitest';
import { checkCrossReferences, type RegisteredTool } from './registry.js';
import type { ToolSpec } from './shared/tool-def.js';

/** A definition with what the cross-references read; the rest is irrelevant to them. */
function tool(extra: Partial<ToolSpec>): Map<string, RegisteredTool> {
  const def = {
    id: 'fx',
    modes: ['one', 'two'],
    modeField: 'mode',
    fields: { a: 'text', b: null, c: null },
    input: { type: 'object', properties: { text: { type: 'string' }, level: { type: 'string' } } },
    endpoints: [{ path: '/api/fx/', methods: ['GET'] }],
    relatedTools: [],
    semanticFields: { text: 'text', level: 'level', doc: 'doc', n: 'n' },
    ...extra,
  } as unknown as ToolSpec;
  return new Map([['fx', { def } as RegisteredTool]]);
}

describe('checkCrossReferences: optionModes', () => {
  it('accepts an option of known modes', () => {
    expect(() => checkCrossReferences(tool({ optionModes: { level: ['two'] } }))).not.toThrow();
  });

  it('refuses an unknown mode, a field not in the schema and a field a slot carries', () => {
    expect(() => checkCrossReferences(tool({ optionModes: { level: ['three'] } }))).toThrow(
      "option 'level': unknown mode 'three'",
    );
    expect(() => checkCrossReferences(tool({ optionModes: { colour: ['one'] } }))).toThrow(
      "option 'colour' not in input schema",
    );
    expect(() => checkCrossReferences(tool({ optionModes: { text: ['one'] } }))).toThrow(
      "option 'text' is carried by a slot in mode 'one'",
    );
  });

  it('accepts a slot field as an option in a mode whose slot map displaces it, and only there', () => {
    const displaced = { fieldsByMode: { two: { a: 'level' } } };
    expect(() => checkCrossReferences(tool({ ...displaced, optionModes: { text: ['two'] } }))).not.toThrow();
    expect(() => checkCrossReferences(tool({ ...displaced, optionModes: { text: ['one', 'two'] } }))).toThrow(
      "option 'text' is carried by a slot in mode 'one'",
    );
  });
});

describe('checkCrossReferences: jsonText', () => {
  const input = {
    type: 'object',
    properties: { text: { type: 'string' }, doc: { type: ['object', 'string'] }, n: { type: ['integer'] } },
  };

  it('accepts a field that takes a string and a JSON value', () => {
    expect(() => checkCrossReferences(tool({ input, jsonText: ['doc'] }))).not.toThrow();
  });

  it('refuses a field that takes only a string, only a value, or is not in the schema', () => {
    for (const field of ['text', 'n', 'colour'])
      expect(() => checkCrossReferences(tool({ input, jsonText: [field] }))).toThrow(
        `jsonText '${field}' must be an input field that takes a string and a JSON value`,
      );
  });
});
