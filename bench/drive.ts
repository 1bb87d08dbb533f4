import autocannon from 'autocannon';

/** `good` requests must succeed; `bad` ones (overdue runs) are expected to be refused or cut. */
export type RequestKind = 'good' | 'bad';

export interface RequestSpec {
  kind: RequestKind;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface DriveSpec {
  base: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Each connection cycles through these in order (autocannon's `requests`). */
  requests: RequestSpec[];
}

export interface KindCounts {
  answered: number;
  ok: number;
  /** Answers other than 2xx. */
  failed: number;
  status: Record<string, number>;
}

/** One measured run: autocannon's own figures plus what the harness counted per request kind. */
export interface DriveResult {
  durationSec: number;
  rps: number;
  p50: number;
  p99: number;
  meanLatency: number;
  /** Connection errors and autocannon's own request timeouts. */
  errors: number;
  non2xx: number;
  total: number;
  status: Record<string, number>;
  good: KindCounts;
  bad: KindCounts;
  /** Milliseconds of every 504 (TIMEOUT) answer, for the timeout-latency target. */
  timeoutLatencies: number[];
  /** Milliseconds of every good answer, only for mixes (their autocannon p99 mixes both kinds). */
  goodLatencies: number[];
}

let active: autocannon.Instance | null = null;

/** Ends the running load at once (SIGINT): autocannon then reports and the run unwinds. */
export function stopActiveLoad(): void {
  active?.stop();
}

const emptyCounts = (): KindCounts => ({ answered: 0, ok: 0, failed: 0, status: {} });

export async function drive(spec: DriveSpec): Promise<DriveResult> {
  const counts = { good: emptyCounts(), bad: emptyCounts() };
  const mixed = spec.requests.some((r) => r.kind === 'bad');
  const timeoutLatencies: number[] = [];
  const goodLatencies: number[] = [];
  // autocannon calls a request's onResponse and then, synchronously, emits 'response' with
  // the latency; remembering the kind in between attributes each latency to its request.
  let lastKind: RequestKind = 'good';
  const requests: autocannon.Request[] = spec.requests.map((r) => ({
    method: r.method,
    path: r.path,
    ...(r.body === undefined ? {} : { body: r.body, headers: { 'content-type': 'application/json' } }),
    onResponse: (status: number) => {
      lastKind = r.kind;
      const c = counts[r.kind];
      c.answered++;
      if (status >= 200 && status < 300) c.ok++;
      else c.failed++;
      c.status[status] = (c.status[status] ?? 0) + 1;
    },
  }));

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    active = autocannon(
      { url: spec.base, connections: spec.connections, pipelining: 1, duration: spec.duration, requests },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    active.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status === 504) timeoutLatencies.push(ms);
      if (mixed && lastKind === 'good') goodLatencies.push(ms);
    });
  }).finally(() => {
    active = null;
  });

  const status: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) status[code] = count;
  return {
    durationSec: result.duration,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    meanLatency: result.latency.average,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
    status,
    good: counts.good,
    bad: counts.bad,
    timeoutLatencies,
    goodLatencies,
  };
}
