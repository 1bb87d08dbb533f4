import autocannon from 'autocannon';

/** `good` requests must succeed; `bad` ones (overdue runs) are expected to be refused or cut. */
export type RequestKind = 'good' | 'bad';

export interface RequestSpec {
  kind: RequestKind;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Headers beside the JSON content type (the MCP protocol headers). */
  headers?: Record<string, string>;
  /**
   * A header every 2xx answer must carry, starting with this value (the cache-hit scenario:
   * `Cache-Status: toolhub; hit`); the answers without it are counted, and fail the run.
   */
  expectHeader?: { name: string; startsWith: string };
}

export interface DriveSpec {
  base: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Each connection cycles through these in order (autocannon's `requests`). */
  requests: RequestSpec[];
  /** Other connections beside them for the same time, e.g. a noisy client of its own. */
  neighbour?: { connections: number; requests: RequestSpec[] };
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
  /** 2xx answers to requests with an `expectHeader`: how many were checked, how many lacked it. */
  headerCheck: HeaderCheck;
}

export interface HeaderCheck {
  checked: number;
  mismatched: number;
  /** The header's value on the first answer that lacked the expected start (null: absent). */
  firstMismatch: string | null;
}

/** A header of autocannon's answer object, whatever the case the server wrote its name in. */
function headerValue(headers: Record<string, unknown>, name: string): string | null {
  const lower = name.toLowerCase();
  const value =
    headers[lower] ?? headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === lower)?.[1];
  return value === undefined ? null : String(value);
}

const active = new Set<autocannon.Instance>();

/** Ends the running load at once (SIGINT): autocannon then reports and the run unwinds. */
export function stopActiveLoad(): void {
  for (const instance of active) instance.stop();
}

const emptyCounts = (): KindCounts => ({ answered: 0, ok: 0, failed: 0, status: {} });

export async function drive(spec: DriveSpec): Promise<DriveResult> {
  const counts = { good: emptyCounts(), bad: emptyCounts() };
  const mixed = [...spec.requests, ...(spec.neighbour?.requests ?? [])].some((r) => r.kind === 'bad');
  const timeoutLatencies: number[] = [];
  const goodLatencies: number[] = [];
  const headerCheck: HeaderCheck = { checked: 0, mismatched: 0, firstMismatch: null };
  // autocannon calls a request's onResponse and then, synchronously, emits 'response' with
  // the latency; remembering the kind in between attributes each latency to its request.
  let lastKind: RequestKind | 'neighbour' = 'good';
  // The neighbour's good answers are not counted: good req/s is the measured connections'.
  const toAutocannon = (list: RequestSpec[], neighbour: boolean): autocannon.Request[] =>
    list.map((r) => ({
      method: r.method,
      path: r.path,
      ...(r.body === undefined
        ? {}
        : { body: r.body, headers: { 'content-type': 'application/json', ...r.headers } }),
      onResponse: (status: number, _body: string, _context: object, headers: Record<string, string>) => {
        lastKind = neighbour && r.kind === 'good' ? 'neighbour' : r.kind;
        if (lastKind === 'neighbour') return;
        const c = counts[r.kind];
        c.answered++;
        const ok = status >= 200 && status < 300;
        if (ok) c.ok++;
        else c.failed++;
        c.status[status] = (c.status[status] ?? 0) + 1;
        if (ok && r.expectHeader) {
          headerCheck.checked++;
          const value = headerValue(headers, r.expectHeader.name);
          if (value === null || !value.startsWith(r.expectHeader.startsWith)) {
            if (headerCheck.mismatched++ === 0) headerCheck.firstMismatch = value;
          }
        }
      },
    }));
  const load = (connections: number, list: RequestSpec[], neighbour = false) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: spec.base,
          connections,
          pipelining: 1,
          duration: spec.duration,
          requests: toAutocannon(list, neighbour),
        },
        (error, res) => (error ? reject(error) : resolve(res)),
      );
      active.add(instance);
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status === 504) timeoutLatencies.push(ms);
        if (mixed && lastKind === 'good') goodLatencies.push(ms);
      });
    }).finally(() => active.clear());

  // The neighbour's connections are load beside the measured ones; its answers are counted
  // by kind (good, bad) like the others, but autocannon's figures are the measured ones'.
  const [result] = await Promise.all([
    load(spec.connections, spec.requests),
    spec.neighbour ? load(spec.neighbour.connections, spec.neighbour.requests, true) : null,
  ]);

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
    headerCheck,
  };
}
