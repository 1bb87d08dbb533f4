import { describe, expect, it } from 'vitest';
import { runToolSync } from '../_shared/test-helpers.js';
import { MAX_OBJECT_DEPTH, MAX_PROPERTIES } from './openai-limits.js';
import run from './run.js';
import def from './tool.js';

const generate = (input: Record<string, unknown>, mode?: string) => runToolSync({ def, run }, input, mode);

/** An object nested `levels` deep: {"a": {"a": ... {"leaf": 1}}}. */
function nested(levels: number): unknown {
  let value: unknown = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

describe('schema-generator strict mode and OpenAI size limits', () => {
  it(`warns past ${MAX_OBJECT_DEPTH} levels of object nesting, counting through arrays`, () => {
    expect(generate({ sample: nested(MAX_OBJECT_DEPTH) }, 'strict').warnings).toEqual([]);
    const deep = generate({ sample: nested(MAX_OBJECT_DEPTH + 1) }, 'strict').warnings;
    expect(deep).toEqual([
      'Objects nest 11 levels deep; OpenAI Structured Outputs allows at most 10 levels of nesting.',
    ]);
    // Arrays do not add a level, objects inside them do.
    const inArrays = generate({ sample: { list: [[nested(MAX_OBJECT_DEPTH)]] } }, 'strict').warnings;
    expect(inArrays).toEqual([expect.stringMatching(/^Objects nest 11 levels deep/)]);
  });

  it(`warns past ${MAX_PROPERTIES} properties in total and past 120,000 characters of names`, () => {
    const wide = Object.fromEntries(Array.from({ length: MAX_PROPERTIES + 1 }, (_, i) => [`k${i}`, i]));
    expect(generate({ sample: wide }, 'strict').warnings).toEqual([
      'The schema has 5001 object properties; OpenAI Structured Outputs allows at most 5000 in total.',
    ]);
    const long = Object.fromEntries(Array.from({ length: 121 }, (_, i) => [`${i}`.padEnd(1000, 'x'), i]));
    expect(generate({ sample: long }, 'strict').warnings).toEqual([
      expect.stringMatching(/^Property names total 121000 characters; .* at most 120000\.$/),
    ]);
  });

  it('leaves draft-07 mode alone: the limits are OpenAI strict mode only', () => {
    expect(generate({ sample: nested(MAX_OBJECT_DEPTH + 5) }, 'draft-07').warnings).toEqual([]);
  });
});
