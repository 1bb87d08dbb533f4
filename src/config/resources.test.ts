import { describe, expect, it } from 'vitest';
import { MIN_MEMORY_MB, toolResources } from './resources.js';

const settings = { heapMb: 256, memoryMaxMb: 0, network: [] as string[] };

describe('toolResources: what a tool runs with', () => {
  it('gives a tool that asks for nothing WORKER_HEAP_MB and no network', () => {
    const { resources, warnings } = toolResources([{ id: 'a', needs: { network: false } }], settings);
    expect(resources.get('a')).toEqual({ memoryMb: 256, network: false });
    expect(warnings).toEqual([]);
  });

  it('gives what the manifest asks, within TOOL_MEMORY_MAX_MB (0: WORKER_HEAP_MB), never under V8 floor', () => {
    const tools = [
      { id: 'small', needs: { network: false, memoryMb: 64 } },
      { id: 'big', needs: { network: false, memoryMb: 4096 } },
      { id: 'tiny', needs: { network: false, memoryMb: 1 } },
    ];
    const capped = toolResources(tools, settings);
    expect(capped.resources.get('small')?.memoryMb).toBe(64);
    expect(capped.resources.get('big')?.memoryMb).toBe(256);
    expect(capped.resources.get('tiny')?.memoryMb).toBe(MIN_MEMORY_MB);
    expect(capped.warnings).toEqual([
      'tool big asks for 4096 MB (toolhub.needs.memoryMb); TOOL_MEMORY_MAX_MB caps it at 256 MB',
    ]);
    expect(toolResources(tools, { ...settings, memoryMaxMb: 8192 }).resources.get('big')?.memoryMb).toBe(
      4096,
    );
  });

  it('gives the network only where the manifest asks and TOOL_NETWORK names the tool, and says why not', () => {
    const tools = [
      { id: 'asks', needs: { network: true } },
      { id: 'denied', needs: { network: true } },
      { id: 'unasked', needs: { network: false } },
    ];
    const { resources, warnings } = toolResources(tools, { ...settings, network: ['asks', 'unasked'] });
    expect([...resources].map(([id, r]) => [id, r.network])).toEqual([
      ['asks', true],
      ['denied', false],
      ['unasked', false],
    ]);
    expect(warnings).toEqual([
      'tool denied asks for the network (toolhub.needs.network); TOOL_NETWORK does not name it: it runs without',
      'TOOL_NETWORK names unasked, whose manifest does not ask for the network: it runs without',
    ]);
  });
});
