import { setTimeout as sleep } from 'node:timers/promises';
import { drive } from './drive.js';
import { type HubContext, startHub } from './hub.js';
import { readRss, stopServer } from './processes.js';
import type { SoakFigures } from './ratios.js';
import type { SoakRecord } from './report-md.js';
import type { Scenario } from './scenarios.js';

const SAMPLE_EVERY_S = 10;
/** The baseline is taken after 30 s: start-up, JIT and pool warm-up are over by then. */
const BASELINE_S = 30;

/**
 * hub-run-redis at full load for `seconds`, one process: RSS from /proc every 10 s. A leak per
 * request shows as growth between 30 s and the end; a one-off warm-up allocation does not.
 */
export async function runSoak(
  scenario: Scenario,
  seconds: number,
  hub: HubContext,
): Promise<{ record: SoakRecord; figures: SoakFigures; problems: string[] }> {
  if (scenario.target.kind !== 'hub') throw new Error('the soak runs a hub scenario');
  const server = await startHub(scenario.target.config, hub);
  const samples: [number, number][] = [];
  let sampling = true;
  try {
    const sampler = (async () => {
      const start = Date.now();
      for (let t = SAMPLE_EVERY_S; sampling && t < seconds; t += SAMPLE_EVERY_S) {
        await sleep(Math.max(0, start + t * 1000 - Date.now()));
        const rss = sampling ? await readRss(server.pid) : null;
        if (rss !== null) samples.push([t, rss]);
      }
    })();
    const result = await drive({
      base: server.base,
      connections: scenario.connections,
      duration: seconds,
      requests: scenario.requests,
    });
    sampling = false;
    // "At the end": right after the load stops, before the process is asked to exit.
    const end = await readRss(server.pid);
    await sampler;
    if (end !== null) samples.push([seconds, end]);
    const baseline = samples.find(([t]) => t >= BASELINE_S)?.[1] ?? samples[0]?.[1];
    if (baseline === undefined || end === null) throw new Error('no RSS readings (is /proc mounted?)');
    const problems: string[] = [];
    if (result.errors > 0 || result.non2xx > 0) {
      problems.push(`soak: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    }
    return {
      record: {
        seconds,
        pid: server.pid,
        samples,
        rps: result.rps,
        p99: result.p99,
        errors: result.errors,
        non2xx: result.non2xx,
      },
      figures: { seconds, rss30s: baseline, rssEnd: end },
      problems,
    };
  } finally {
    sampling = false;
    await stopServer(server);
  }
}
