import { describe, expect, it } from 'vitest';
import { poolGroups } from './groups.js';

describe('poolGroups: tools by memory cap and network', () => {
  it('puts every tool with the default resources in the first group, the others apart', () => {
    const paths = { a: '/a.js', b: '/b.js', hog: '/hog.js', net: '/net.js', small: '/small.js' };
    const resources = new Map([
      ['hog', { memoryMb: 32, network: false }],
      ['small', { memoryMb: 32, network: false }],
      ['net', { memoryMb: 256, network: true }],
    ]);
    expect(poolGroups(paths, resources, 256)).toEqual([
      { memoryMb: 256, network: false, tools: { a: '/a.js', b: '/b.js' } },
      { memoryMb: 32, network: false, tools: { hog: '/hog.js', small: '/small.js' } },
      { memoryMb: 256, network: true, tools: { net: '/net.js' } },
    ]);
  });

  it('keeps the first group when no tool has the default resources', () => {
    const groups = poolGroups({ hog: '/hog.js' }, new Map([['hog', { memoryMb: 32, network: false }]]), 256);
    expect(groups[0]).toEqual({ memoryMb: 256, network: false, tools: {} });
    expect(groups).toHaveLength(2);
  });
});
