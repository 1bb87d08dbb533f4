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
 * A clock of this thread's own CPU time, in ms (10 ms steps), for the search budget
 * (tools/cron-expression/schedule.ts): a run starved of CPU by a busy machine spends no
 * budget while it waits, so the answer does not depend on the load. Where /proc has no
 * per-thread times (not Linux), the wall clock.
 */
export function threadCpuClock(): () => number {
  if (!available) return () => performance.now();
  let asked = 0;
  let last = readThreadCpuMs();
  return () => {
    if (++asked % EVERY === 0) last = readThreadCpuMs();
    return last;
  };
}
