import { describe, expect, it } from 'vitest';
import { ENV_SCHEMA } from '../config/env.js';
import { acceptedValues } from './env-table.js';
import { docSections } from './readme-sections.js';

describe('the environment table of docs/operations.md', () => {
  const table = docSections([])['docs/operations.md'].env ?? '';

  it('states the bounds of every variable that has one', () => {
    for (const [name, p] of Object.entries(ENV_SCHEMA.properties)) {
      const prop = p as { minimum?: number; maximum?: number; exclusiveMinimum?: number };
      const row = table.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, name).toBeDefined();
      for (const bound of [prop.minimum, prop.maximum, prop.exclusiveMinimum]) {
        if (bound !== undefined) expect(row, name).toContain(`\`${bound}\``);
      }
    }
  });

  it('says each kind of bound', () => {
    expect(acceptedValues('X', { type: 'integer', minimum: 1024, maximum: 2048, description: '' })).toBe(
      'integer `1024`..`2048`',
    );
    expect(acceptedValues('X', { type: 'integer', minimum: 0, description: '' })).toBe('integer >= `0`');
    expect(acceptedValues('X', { type: 'number', exclusiveMinimum: 0, maximum: 1, description: '' })).toBe(
      'number > `0`, <= `1`',
    );
    expect(acceptedValues('X', { enum: ['a', 'b'], description: '' })).toBe('`a`, `b`');
    expect(acceptedValues('X', { type: 'boolean', description: '' })).toBe('`true`, `false`');
    expect(acceptedValues('X', { type: 'string', description: '' })).toBe('text');
  });

  it('refuses a pattern it cannot say in words', () => {
    expect(() => acceptedValues('NEW_ONE', { type: 'string', pattern: '^x$', description: '' })).toThrow(
      /PATTERN_WORDS/,
    );
  });

  it('keeps the README headline table to its three columns', () => {
    expect(docSections([])['README.md'].settings?.split('\n')[0]).toBe('| variable | default | meaning |');
  });
});
