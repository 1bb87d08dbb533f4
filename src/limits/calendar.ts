/**
 * The quota windows (docs/operations.md, "Quotas"): the UTC calendar day and month that hold
 * an instant. Written as the arithmetic of src/limits/lua/includes/calendar.lua (days from
 * civil and back, Howard Hinnant's algorithms), not with Date, so the two read alike line by
 * line; src/limits/calendar.test.ts checks both against Date.UTC.
 */
const DAY_MS = 86_400_000;

/** The end (exclusive) of the UTC day that holds `t`. */
export function dayEndOf(t: number): number {
  return (Math.floor(t / DAY_MS) + 1) * DAY_MS;
}

/** The end (exclusive) of the UTC month that holds `t`: the first instant of the next. */
export function monthEndOf(t: number): number {
  const z = Math.floor(t / DAY_MS) + 719_468;
  let era = Math.floor(z / 146_097);
  let doe = z - era * 146_097;
  let yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  let y = yoe + era * 400;
  let doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  let m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) y++;
  // The first day of the next month, back to days since the epoch.
  m++;
  if (m > 12) {
    m = 1;
    y++;
  }
  if (m <= 2) y--;
  era = Math.floor(y / 400);
  yoe = y - era * 400;
  doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5);
  doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return (era * 146_097 + doe - 719_468) * DAY_MS;
}

/**
 * The window end nearest to `t`: what an end read as "ms left" on another clock (Redis's)
 * names, exact while the clocks agree within 12 hours.
 */
export function nearestEnd(window: 'day' | 'month', t: number): number {
  return window === 'day' ? Math.round(t / DAY_MS) * DAY_MS : monthEndOf(t - DAY_MS / 2);
}
