import { parseArgs } from 'node:util';

/** What one invocation of `npm run bench -- <flags>` asks for. */
export interface BenchOptions {
  /** Rounds of the interleaved scenario list (A B C ... A B C ...). */
  rounds: number;
  /** Seconds of measured load per scenario run. */
  duration: number;
  /** Seconds of unrecorded load before each measured run: a fresh process has cold JIT caches. */
  warmup: number;
  /** Connections of the throughput scenarios. */
  connections: number;
  quick: boolean;
  soak: boolean;
  /** Seconds of the soak run; 300 by the issue, shorter only to try the harness itself. */
  soakSeconds: number;
  /** HUB_PROCESSES of the scaling stage (empty: no stage), e.g. 1, 2, 4. */
  scaling: number[];
  /** Run only scenarios whose id contains one of these (debugging the harness). */
  only: string[];
  /**
   * The cores the scaling stage shares out among the processes under test (e.g. 0-11), so
   * Redis and the load generator keep cores of their own; empty: every core of the machine.
   */
  cpus: number[];
}

const HELP = `npm run bench -- [flags]
  --rounds N        rounds of all scenarios, interleaved (default 3, at least 3 unless --quick)
  --duration S      seconds per scenario run (default 10)
  --warmup S        unrecorded seconds before each run (default 2)
  --connections N   connections of the throughput scenarios (default 64)
  --quick           CI mode: 1 round, 3 s per scenario, numbers not judged, results in bench/results/quick/
  --soak            add a 5-minute run of hub-run-redis and report the RSS growth
  --soak-seconds S  length of the soak (default 300)
  --only a,b        only the scenarios whose id contains one of these (harness debugging)
  --scaling 1,2,4   add the scaling stage: HUB_PROCESSES=N beside N bare fastify processes, for each N
  --cpus 0-11       the cores the scaling stage pins its processes to (default: all); run Redis
                    and the bench itself on others (taskset)`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, got "${raw}"`);
  return value;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      quick: { type: 'boolean', default: false },
      soak: { type: 'boolean', default: false },
      'soak-seconds': { type: 'string' },
      scaling: { type: 'string' },
      only: { type: 'string' },
      cpus: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  const quick = values.quick === true;
  const rounds = Math.round(positive('rounds', values.rounds, quick ? 1 : 3));
  // The issue asks for at least 3 repetitions; fewer is only meaningful as a smoke test.
  if (!quick && rounds < 3) throw new Error('--rounds must be at least 3 (use --quick for a smoke test)');
  return {
    rounds,
    duration: positive('duration', values.duration, quick ? 3 : 10),
    warmup: positive('warmup', values.warmup, quick ? 1 : 2),
    connections: Math.round(positive('connections', values.connections, 64)),
    quick,
    soak: values.soak === true,
    soakSeconds: positive('soak-seconds', values['soak-seconds'], 300),
    scaling:
      values.scaling === undefined
        ? []
        : (values.scaling || '1,2,4').split(',').map((n) => Math.round(positive('scaling', n.trim(), 1))),
    only: (values.only ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    cpus: values.cpus === undefined ? [] : cpuList(values.cpus),
  };
}

/** A taskset-style core list, `0-11` or `0,2,4-7`, as core numbers. */
export function cpuList(text: string): number[] {
  const cores = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!match) throw new Error(`--cpus must be a core list such as 0-11 or 0,2,4-7, got "${text}"`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (last < first) throw new Error(`--cpus: ${part.trim()} runs backwards`);
    for (let core = first; core <= last; core++) cores.add(core);
  }
  return [...cores].sort((a, b) => a - b);
}
