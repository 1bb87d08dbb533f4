import { readFileSync } from 'node:fs';

const STAT = '/proc/thread-self/stat';
/** The kernel's clock ticks per second for /proc times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;
/** A /proc read costs about 27 µs: one in this many asks reads it, the others reuse it. */
const EVERY = 8;

function readThreadCpuMs(): number {
  const stat = readFileSync(STAT, 'utf8');
  // Fields after the command's closing parenthesis: state is the first, utime the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const available = (() => {
  try {
    return Number.isFinite(readThreadCpuMs());
  } catch {
    return false;
  }
})();

/**
 * The search budget's clock (tools/cron-expression/schedule.ts), in ms: this thread's own
 * CPU time (10 ms steps), so that a run waiting for a core on a busy machine spends no
 * budget and gives the answer an idle machine gives; but never less than `wallShare` of the
 * wall time, so that a run starved that long still answers with what it found before the
 * tool's TIMEOUT (the 400 ms budget is spent by 700 ms of wall time at the latest, with
 * the 1,000 ms timeout ahead). Where /proc has no per-thread times (not Linux), wall time.
 */
export function threadCpuClock(wallShare = 4 / 7): () => number {
  const wall0 = performance.now();
  if (!available) return () => performance.now() - wall0;
  let asked = 0;
  const cpu0 = readThreadCpuMs();
  let cpu = cpu0;
  return () => {
    if (++asked % EVERY === 0) cpu = readThreadCpuMs();
    return Math.max(cpu - cpu0, (performance.now() - wall0) * wallShare);
  };
}
