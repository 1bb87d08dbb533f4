import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonErrorOffset } from './json-locate.js';

const parses = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

// Fragments that make near-JSON texts, valid and invalid, more often than random characters would.
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '"a"',
  '1',
  '-',
  '.',
  'e',
  '0',
  ' ',
  '\n',
  'tru',
  'true',
  'null',
  '\\',
  '\\u00e9',
  'x',
];

describe('findJsonErrorOffset', () => {
  it('agrees with JSON.parse on what is valid (JSON.parse as the oracle)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(findJsonErrorOffset(text) === -1).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds no error in any generated JSON text', () => {
    fc.assert(fc.property(fc.json(), (text) => findJsonErrorOffset(text) === -1));
  });

  it('points at the offending character', () => {
    expect(findJsonErrorOffset('{"a": }')).toBe(6);
    expect(findJsonErrorOffset('[1,]')).toBe(3);
    expect(findJsonErrorOffset('{"a":tru}')).toBe(8);
    expect(findJsonErrorOffset('{"a":"\\x"}')).toBe(7);
    expect(findJsonErrorOffset('"a\nb"')).toBe(2);
    expect(findJsonErrorOffset('{"a":1} x')).toBe(8);
    expect(findJsonErrorOffset('')).toBe(0);
    expect(findJsonErrorOffset('{"a":[1,{"b":null}]}')).toBe(-1);
  });

  it('is iterative: deep nesting does not overflow the stack', () => {
    const deep = '['.repeat(100_000);
    expect(findJsonErrorOffset(deep)).toBe(100_000);
  });
});
