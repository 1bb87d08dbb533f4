import { optionRequest, readExamples, readOptionExamples } from '../src/docs/examples.js';
import { scanTools } from '../src/registry.js';
import { type HubContext, startHub } from './hub.js';
import { stopServer } from './processes.js';

/** One example's first and second run on a fresh hub of one worker thread. */
export interface FirstRun {
  toolId: string;
  /** `basic.json` or an option example's file name. */
  example: string;
  status: number;
  /** Client-side time of the first run: the worker loads what the example needs (a tokenizer, recheck, a QR decoder). */
  firstMs: number;
  /** The same request again: the tool's run alone (no tool caches results by default). */
  secondMs: number;
}

/**
 * The first-run stage of `npm run bench` (docs/benchmarks.md, "First runs"): a hub with one
 * worker thread (so the second run meets the worker the first one warmed), then every tool's
 * basic example and each of its option examples twice in a row. What a library costs to
 * load shows as first − second, on the worker, out of the boot's way.
 */
export async function measureFirstRuns(hub: HubContext): Promise<FirstRun[]> {
  const server = await startHub({ redis: false, policy: 'fast', poolThreads: 1 }, hub);
  const rows: FirstRun[] = [];
  try {
    for (const tool of (await scanTools()).values()) {
      const examples: Array<[string, { url: string; payload: Record<string, unknown> }]> = [
        ['basic.json', { url: '/api/tools/run/', payload: readExamples(tool.docsDir).basic }],
        ...readOptionExamples(tool.docsDir).map(
          ([path, example]) =>
            [path.split('/').pop() ?? path, optionRequest(example)] as [
              string,
              ReturnType<typeof optionRequest>,
            ],
        ),
      ];
      for (const [example, request] of examples) {
        const timed = async () => {
          const t0 = performance.now();
          const res = await fetch(`${server.base}${request.url}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(request.payload),
          });
          await res.arrayBuffer();
          return { status: res.status, ms: performance.now() - t0 };
        };
        const first = await timed();
        const second = await timed();
        rows.push({
          toolId: tool.def.id,
          example,
          status: first.status,
          firstMs: first.ms,
          secondMs: second.ms,
        });
      }
    }
  } finally {
    await stopServer(server);
  }
  return rows;
}

/** The stage as a Markdown table. */
export function firstRunTable(rows: FirstRun[]): string {
  return [
    '| tool | example | status | first run ms | second run ms | first − second ms |',
    '|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.toolId} | ${r.example} | ${r.status} | ${r.firstMs.toFixed(0)} | ${r.secondMs.toFixed(0)} | ${(r.firstMs - r.secondMs).toFixed(0)} |`,
    ),
  ].join('\n');
}
