import { describe, expect, it } from 'vitest';
import { editDistance, nearNames } from './near.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['gpt-4', 'gpt-4', 0],
    ['gpt-4', 'gpt-4o', 1],
    ['kitten', 'sitting', 3],
    ['gpt-4-0409', 'gpt-4-0613', 3],
    ['', 'abc', 3],
  ])('%j to %j is %i', (a, b, d) => {
    expect(editDistance(a, b, 10)).toBe(d);
    expect(editDistance(b, a, 10)).toBe(d);
  });

  it('stops at limit + 1 once the distance must exceed the limit', () => {
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('a', 'a'.repeat(50), 5)).toBe(6);
  });
});

describe('nearNames', () => {
  const names = [
    'gpt-4',
    'gpt-4o',
    'gpt-4-0613',
    'gpt-4-0314',
    'claude-sonnet-4-0',
    'claude-sonnet-4-5',
    'o1',
  ];

  it('orders the names within reach nearest first, then shorter, then alphabetically', () => {
    expect(nearNames('gpt-4-0409', names)).toEqual(['gpt-4-0314', 'gpt-4-0613', 'gpt-4']);
  });

  it('counts a name that the wanted one starts with, or that starts with it, as near', () => {
    expect(nearNames('claude-sonnet-4', names)).toEqual(['claude-sonnet-4-0', 'claude-sonnet-4-5']);
    expect(nearNames('gpt-4-0613-extra-long-suffix', names)).toEqual(['gpt-4-0613', 'gpt-4']);
  });

  it('suggests nothing far away, and at most max names', () => {
    expect(nearNames('qwen2.5-72b', names)).toEqual([]);
    expect(nearNames('gpt-4', names, 2)).toEqual(['gpt-4', 'gpt-4o']);
  });
});
