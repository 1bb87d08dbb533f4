/** What a tool runs with: its memory cap (its workers' heap, MB) and whether it may use the network. */
export interface ToolResources {
  memoryMb: number;
  network: boolean;
}

/** The operator's bounds on what packages ask for (docs/tool-packages.md, "What a package needs"). */
export interface ResourceSettings {
  /** WORKER_HEAP_MB: the cap of a tool that asks for none (every built-in tool). */
  heapMb: number;
  /** TOOL_MEMORY_MAX_MB: the most a tool's manifest may ask for; 0: WORKER_HEAP_MB. */
  memoryMaxMb: number;
  /** TOOL_NETWORK: the ids of the tools that may use the network, where their manifest asks for it. */
  network: readonly string[];
}

/** V8 runs no isolate in less; a smaller memoryMb gets this. */
export const MIN_MEMORY_MB = 16;

/**
 * Each tool's resources: its manifest's `needs.memoryMb` bounded by TOOL_MEMORY_MAX_MB (none
 * asked: WORKER_HEAP_MB), network only where its manifest asks for it and TOOL_NETWORK names
 * it. `warnings` says where the operator gave a tool less than it asked for, in one line each.
 */
export function toolResources(
  tools: Iterable<{ id: string; needs: { network: boolean; memoryMb?: number } }>,
  settings: ResourceSettings,
): { resources: Map<string, ToolResources>; warnings: string[] } {
  const max = settings.memoryMaxMb || settings.heapMb;
  const resources = new Map<string, ToolResources>();
  const warnings: string[] = [];
  for (const { id, needs } of tools) {
    const asked = needs.memoryMb;
    const memoryMb = asked === undefined ? settings.heapMb : Math.max(MIN_MEMORY_MB, Math.min(asked, max));
    if (asked !== undefined && asked > max)
      warnings.push(
        `tool ${id} asks for ${asked} MB (toolhub.needs.memoryMb); TOOL_MEMORY_MAX_MB caps it at ${max} MB`,
      );
    const allowed = settings.network.includes(id);
    if (needs.network && !allowed)
      warnings.push(
        `tool ${id} asks for the network (toolhub.needs.network); TOOL_NETWORK does not name it: it runs without`,
      );
    if (allowed && !needs.network)
      warnings.push(`TOOL_NETWORK names ${id}, whose manifest does not ask for the network: it runs without`);
    resources.set(id, { memoryMb, network: needs.network && allowed });
  }
  return { resources, warnings };
}
