import type { ToolResources } from '../config/resources.js';
import type { RunOutcome } from './outcome.js';
import type { PoolRun } from './pending-run.js';
import { type PoolOptions, type PoolStats, ToolPool } from './pool.js';

/** The tools of one pool group: the same memory cap and network. */
export interface PoolGroupSpec extends ToolResources {
  tools: Record<string, string>;
}

/** Tools by resources, the group of WORKER_HEAP_MB without network first (it exists even when empty). */
export function poolGroups(
  runPaths: Record<string, string>,
  resources: ReadonlyMap<string, ToolResources>,
  heapMb: number,
): PoolGroupSpec[] {
  const groups = new Map<string, PoolGroupSpec>([
    [`${heapMb}:false`, { memoryMb: heapMb, network: false, tools: {} }],
  ]);
  for (const [id, path] of Object.entries(runPaths)) {
    const r = resources.get(id) ?? { memoryMb: heapMb, network: false };
    const key = `${r.memoryMb}:${r.network}`;
    const group = groups.get(key) ?? { ...r, tools: {} };
    groups.set(key, group);
    group.tools[id] = path;
  }
  return [...groups.values()];
}

/**
 * The worker threads in **pool groups** (docs/architecture.md, "Pool groups"): one ToolPool
 * per memory cap and network, each with its workers' `resourceLimits` and network guard, so a
 * tool past its cap loses its own worker only. The first group, the built-in tools', has the
 * pool's full settings; the others, the packages' own, `threads` 1 and `overflow` 1 each. A run
 * goes to its tool's group; the stats add the groups up (POOL_THREADS: the first group's).
 */
export class PoolGroups {
  private readonly pools: ToolPool[];
  private readonly byTool = new Map<string, ToolPool>();

  constructor(base: Omit<PoolOptions, 'tools' | 'heapMb'>, groups: readonly PoolGroupSpec[]) {
    this.pools = groups.map((group, i) => {
      const sized = i === 0 ? base : { ...base, threads: 1, overflow: 1 };
      const pool = new ToolPool({
        ...sized,
        heapMb: group.memoryMb,
        tools: group.tools,
        networkEnabled: group.network,
        // The groups' events are this pool's, for the log and the metrics.
        eventSource: this,
      });
      for (const id of Object.keys(group.tools)) this.byTool.set(id, pool);
      return pool;
    });
  }

  /** How many groups: 1 when every tool has the default resources. */
  get size(): number {
    return this.pools.length;
  }

  run(call: PoolRun): Promise<RunOutcome> {
    // A tool no group holds (never: the registry gave every tool one) runs in the first, which refuses it.
    return (this.byTool.get(call.toolId) ?? this.pools[0]!).run(call);
  }

  warmUp(): Promise<void> {
    return Promise.all(this.pools.map((p) => p.warmUp())).then(() => {});
  }

  get warm(): boolean {
    return this.pools.every((p) => p.warm);
  }

  get closed(): boolean {
    return this.pools[0]!.closed;
  }

  stats(): PoolStats {
    const all = this.pools.map((p) => p.stats());
    const sum = (pick: (s: PoolStats) => number) => all.reduce((n, s) => n + pick(s), 0);
    return {
      threads: all[0]!.threads,
      slowThreads: all[0]!.slowThreads,
      maxWorkers: sum((s) => s.maxWorkers),
      workers: sum((s) => s.workers),
      held: sum((s) => s.held),
      queueSize: sum((s) => s.queueSize),
      utilization: sum((s) => s.utilization) / all.length,
      capacity: sum((s) => s.capacity),
      inUse: sum((s) => s.inUse),
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((p) => p.close()));
  }
}
