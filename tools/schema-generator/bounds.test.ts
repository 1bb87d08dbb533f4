import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectToolError, runToolSync } from '../_shared/test-helpers.js';
import { detectFormat } from './formats.js';
import { MAX_DEPTH, MAX_NODES } from './infer.js';
import { compile, fillMissing, strictViolations } from './oracle.js';
import run from './run.js';
import def, { MAX_SAMPLE_CHARS, MAX_TITLE_CHARS } from './tool.js';

const generate = (input: Record<string, unknown>, mode?: string) => runToolSync({ def, run }, input, mode);

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('schema-generator input errors and bounds', () => {
  it('rejects a missing sample, invalid JSON text and a bad title with INVALID_INPUT', async () => {
    await expectToolError(() => generate({}, 'draft-07'), 'INVALID_INPUT', 'sample is required');
    await expectToolError(
      () => generate({ sample: '{"a": 1,' }, 'draft-07'),
      'INVALID_INPUT',
      /sample is not valid JSON/,
    );
    // A number would be read as its text (title "42"); a list cannot be.
    await expectToolError(
      () => generate({ sample: '{}', title: [42] }, 'draft-07'),
      'INVALID_INPUT',
      /title/,
    );
    const long = { sample: '{}', title: 't'.repeat(MAX_TITLE_CHARS + 1) };
    await expectToolError(() => generate(long, 'draft-07'), 'INVALID_INPUT', /title/);
    const text = ` ${'0'.repeat(MAX_SAMPLE_CHARS)}`;
    await expectToolError(
      () => generate({ sample: text }, 'draft-07'),
      'INVALID_INPUT',
      /^sample must NOT have more/,
    );
  });

  it('rejects an unknown mode with UNSUPPORTED_OPTION listing the modes', async () => {
    await expectToolError(
      () => generate({ sample: '{}' }, 'draft-2020-12'),
      'UNSUPPORTED_OPTION',
      'draft-07, strict, merge',
    );
  });

  it(`accepts ${MAX_DEPTH} levels of nesting and refuses one more`, async () => {
    expect(generate({ sample: nested(MAX_DEPTH) }, 'draft-07').schema.type).toBe('array');
    await expectToolError(
      () => generate({ sample: nested(MAX_DEPTH + 1) }, 'draft-07'),
      'INVALID_INPUT',
      /deeper than 64/,
    );
    await expectToolError(() => generate({ sample: nested(100_000) }, 'strict'), 'INVALID_INPUT');
  });

  it(`refuses more than ${MAX_NODES} values`, async () => {
    await expectToolError(
      () => generate({ sample: new Array(MAX_NODES).fill(0) }, 'draft-07'),
      'INVALID_INPUT',
      /too large/,
    );
  });

  it('handles a sample near the 256 KiB input limit', () => {
    const rows = Array.from({ length: 2300 }, (_, i) => ({
      id: i,
      uuid: `c56a4180-65aa-42ec-a945-${String(i).padStart(12, '0')}`,
      when: `2024-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z`,
      label: `row ${i}`,
      ...(i % 2 ? { odd: true } : {}),
    }));
    const text = JSON.stringify(rows);
    expect(text.length).toBeGreaterThan(200_000);
    expect(text.length).toBeLessThan(262_144);
    const { schema } = generate({ sample: text }, 'draft-07');
    expect(schema.items).toMatchObject({
      properties: { when: { type: 'string', format: 'date-time' } },
      required: ['id', 'uuid', 'when', 'label'],
    });
    expect(compile(schema)(rows)).toBe(true);
  });
});

describe('format detection', () => {
  it.each([
    ['2024-05-01T10:00:00Z', 'date-time'],
    ['2024-05-01T10:00:00.123+02:00', 'date-time'],
    ['2024-02-29', 'date'],
    ['C56A4180-65AA-42EC-A945-5FD21DEC0538', 'uuid'],
    ['first.last+tag@sub.example.co.uk', 'email'],
    ['192.168.1.254', 'ipv4'],
    ['2001:db8::8a2e:370:7334', 'ipv6'],
    ['https://example.com/a?b=c#d', 'uri'],
    ['ftp://files.example.org/x', 'uri'],
  ])('%s is %s', (value, format) => {
    expect(detectFormat(value)).toBe(format);
    expect(compile({ type: 'string', format })(value)).toBe(true);
  });

  it.each([
    '2024-05-01T10:00:00', // no time zone: ajv's date-time refuses it
    '2023-02-29',
    '2024-13-01',
    'hello',
    'a@b@c',
    '256.1.1.1',
    '10:30',
    'mailto:x@example.com',
    'note:thing',
    '12345',
    '',
  ])('%j has no format', (value) => {
    expect(detectFormat(value)).toBeNull();
  });

  it('keeps a format only when every string at the place has it', () => {
    const mixed = generate({ sample: ['2024-01-01', 'tomorrow'] }, 'draft-07').schema;
    expect(mixed.items).toEqual({ type: 'string' });
    const dates = generate({ sample: ['2024-01-01', '2024-12-31'] }, 'draft-07').schema;
    expect(dates.items).toEqual({ type: 'string', format: 'date' });
  });
});

describe('every generated schema accepts its samples (property test, ajv oracle)', () => {
  // ajv deliberately ignores "__proto__" in properties (so closed objects refuse it): not a fair oracle there.
  const json = fc.jsonValue({ maxDepth: 4 }).filter((v) => !JSON.stringify(v).includes('"__proto__"'));

  it('draft-07 and strict', () => {
    fc.assert(
      // Passed as JSON text: a string sample is read as JSON text, not as a JSON string value.
      fc.property(json, (sample) => {
        const text = JSON.stringify(sample);
        expect(compile(generate({ sample: text }, 'draft-07').schema)(sample)).toBe(true);
        const strict = generate({ sample: text }, 'strict').schema;
        expect(compile(strict)(fillMissing(sample, strict))).toBe(true);
        expect(strictViolations(strict)).toEqual([]);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('merge', () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 5 }), (samples) => {
        const validate = compile(generate({ sample: samples }, 'merge').schema);
        for (const sample of samples) expect(validate(sample)).toBe(true);
      }),
      { numRuns: 200, seed: 12 },
    );
  });
});
