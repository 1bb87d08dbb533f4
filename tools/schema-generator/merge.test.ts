import { describe, expect, it } from 'vitest';
import { expectToolError, runToolSync } from '../_shared/test-helpers.js';
import { compile } from './oracle.js';
import run, { DRAFT_07 } from './run.js';
import def from './tool.js';

const generate = (input: Record<string, unknown>, mode?: string) => runToolSync({ def, run }, input, mode);
type Props = Record<string, Record<string, unknown>>;
const propsOf = (schema: Record<string, unknown>) => schema.properties as Props;

describe('schema-generator merge mode', () => {
  const samples = [
    { id: 1, name: 'a', tags: ['x'], meta: { v: 1 } },
    { id: 2, name: 'b', note: 'only here', meta: { v: 2.5, w: true } },
    { id: '3', name: 'c', tags: [], meta: { v: 3 } },
  ];
  const result = generate({ sample: samples, title: 'Merged' }, 'merge');
  const props = propsOf(result.schema);

  it('requires what every sample has and unions differing types', () => {
    expect(result.samples).toBe(3);
    expect(result.schema).toMatchObject({ $schema: DRAFT_07, title: 'Merged', type: 'object' });
    expect(result.schema.required).toEqual(['id', 'name', 'meta']);
    expect(props.id).toEqual({ type: ['string', 'integer'] });
    expect(props.meta).toEqual({
      type: 'object',
      properties: { v: { type: 'number' }, w: { type: 'boolean' } },
      required: ['v'],
    });
  });

  it('validates every sample and rejects a document missing a required key (ajv oracle)', () => {
    const validate = compile(result.schema);
    for (const sample of samples) expect(validate(sample)).toBe(true);
    expect(validate({ id: 4, meta: { v: 1 } })).toBe(false);
    expect(validate({ id: true, name: 'd', meta: { v: 1 } })).toBe(false);
  });

  it('needs a non-empty array of samples', async () => {
    await expectToolError(
      () => generate({ sample: { a: 1 } }, 'merge'),
      'INVALID_INPUT',
      /array of one or more/,
    );
    await expectToolError(() => generate({ sample: '[]' }, 'merge'), 'INVALID_INPUT');
  });
});
