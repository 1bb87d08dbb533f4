/**
 * Wall-clock ↔ instant conversion in an IANA time zone, from Intl alone. Wall times are
 * carried as "wall milliseconds": the local date and time read as if it were UTC, so the
 * Date UTC getters give the local fields and plain arithmetic never meets a DST jump.
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** UTC offset (ms, east positive) of `timeZone` at an instant. Old local mean times have seconds. */
export function offsetMs(timeZone: string, instant: number): number {
  if (timeZone === 'UTC') return 0;
  const name = offsetFormatter(timeZone)
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
  // "GMT" alone is offset zero; otherwise "GMT+10:30" or "GMT-04:56:02" (U+2212 never appears in en-US).
  const m = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(name ?? '');
  if (m === null) return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return (m[1] === '-' ? -seconds : seconds) * 1000;
}

export interface WallInstants {
  /** The first instant showing this wall time or, for a time skipped by spring-forward, the gap-shifted one. */
  first: number;
  /** The second instant showing this wall time: it lies in the hour (or half hour) repeated at fall-back. */
  repeat: number | null;
  /** Every wall time from here on maps to instants after this one: earlier runs may be emitted. */
  settled: number;
  /** True when no instant shows this wall time (spring-forward skipped it): `first` is then gap-shifted. */
  skipped: boolean;
}

/**
 * Instants of a wall time. The offsets a day either side bracket at most one transition
 * (zones change a few times a year), so the candidates are "wall minus either offset",
 * each kept when the zone really has that offset there. No candidate means the time
 * was skipped: it is read with the offset before the jump, which moves it forward by
 * the length of the gap (02:30 → 03:30 for a one-hour gap, 02:10 → 02:40 for 30 minutes).
 */
export function wallInstants(timeZone: string, wall: number): WallInstants {
  const before = offsetMs(timeZone, wall - DAY_MS);
  const after = offsetMs(timeZone, wall + DAY_MS);
  const settled = wall - Math.max(before, after);
  const candidates = before === after ? [wall - before] : [wall - before, wall - after];
  const valid = candidates.filter((t) => offsetMs(timeZone, t) === wall - t).sort((a, b) => a - b);
  const first = valid[0] ?? wall - before;
  return {
    first,
    repeat: valid.length > 1 ? (valid[1] ?? null) : null,
    settled,
    skipped: valid.length === 0,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * ISO 8601 of an instant in a zone with its offset, "Z" for UTC: the form luxon gave
 * (years past 9999 expanded to six digits, offsets truncated to whole minutes).
 */
export function formatInZone(instant: number, timeZone: string): string {
  const offset = offsetMs(timeZone, instant);
  const w = new Date(instant + offset);
  const y = w.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : `${y < 0 ? '-' : '+'}${pad(Math.abs(y), 6)}`;
  const date = `${year}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}`;
  const time = `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}:${pad(w.getUTCSeconds())}`;
  const ms = w.getUTCMilliseconds() === 0 ? '' : `.${pad(w.getUTCMilliseconds(), 3)}`;
  if (timeZone === 'UTC') return `${date}T${time}${ms}Z`;
  const minutes = Math.trunc(Math.abs(offset) / 60_000);
  const zone = `${offset < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
  return `${date}T${time}${ms}${zone}`;
}
