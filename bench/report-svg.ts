import type { Ratio } from './ratios.js';

/**
 * A hand-written SVG bar chart: one bar per ratio on a shared axis, its target as a dashed line,
 * green when met and red when not. No chart library: the file must read well on GitHub as is.
 */
const WIDTH = 860;
const LABEL_W = 360;
const BAR_X = LABEL_W + 10;
const BAR_W = 380;
const ROW_H = 54;
const TOP = 70;
const COLOURS = { met: '#2e7d32', miss: '#c62828', none: '#9e9e9e' };

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The axis reaches past every target and every value, but not beyond 2: a far outlier is clipped. */
function axisMax(ratios: Ratio[]): number {
  const biggest = Math.max(1.25, ...ratios.map((r) => r.target * 1.2), ...ratios.map((r) => r.value ?? 0));
  return Math.min(2, Math.ceil(biggest * 4) / 4);
}

export function ratioChart(ratios: Ratio[], title: string, subtitle: string): string {
  const max = axisMax(ratios);
  const x = (v: number) => BAR_X + (Math.min(v, max) / max) * BAR_W;
  const height = TOP + ratios.length * ROW_H + 60;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="13">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="17" font-weight="bold" fill="#212121">${esc(title)}</text>`,
    `<text x="16" y="46" font-size="12" fill="#616161">${esc(subtitle)}</text>`,
  ];
  // Grid and axis labels first, so bars and targets draw over them.
  const axisY = TOP + ratios.length * ROW_H;
  for (let t = 0; t <= max + 1e-9; t += 0.25) {
    const gx = x(t).toFixed(1);
    out.push(`<line x1="${gx}" y1="${TOP - 6}" x2="${gx}" y2="${axisY}" stroke="#eeeeee"/>`);
    out.push(
      `<text x="${gx}" y="${axisY + 16}" text-anchor="middle" font-size="11" fill="#757575">${t.toFixed(2)}</text>`,
    );
  }
  out.push(`<line x1="${BAR_X}" y1="${axisY}" x2="${BAR_X + BAR_W}" y2="${axisY}" stroke="#9e9e9e"/>`);

  ratios.forEach((r, i) => {
    const y = TOP + i * ROW_H;
    const colour = r.met === null ? COLOURS.none : r.met ? COLOURS.met : COLOURS.miss;
    const wanted = `wanted ${r.direction === '>=' ? '≥' : '≤'} ${r.target.toFixed(2)}`;
    const verdict = r.met === null ? 'not measured' : r.met ? 'met' : 'not met';
    out.push(`<text x="16" y="${y + 20}" fill="#212121">${esc(r.label)}</text>`);
    out.push(
      `<text x="16" y="${y + 37}" font-size="11" fill="#616161">${esc(`${wanted} · ${verdict}`)}</text>`,
    );
    if (r.value !== null) {
      const end = x(r.value);
      out.push(
        `<rect x="${BAR_X}" y="${y + 12}" width="${(end - BAR_X).toFixed(1)}" height="24" fill="${colour}" rx="2"/>`,
      );
      // Values in a fixed column right of the axis, so a bar ending at its target line stays legible.
      const shown = r.value > max ? `${r.value.toFixed(2)} »` : r.value.toFixed(2);
      out.push(
        `<text x="${BAR_X + BAR_W + 14}" y="${y + 29}" font-size="14" font-weight="bold" fill="${colour}">${esc(shown)}</text>`,
      );
    } else {
      out.push(`<text x="${BAR_X + 4}" y="${y + 29}" fill="${COLOURS.none}">not measured</text>`);
    }
    const tx = x(r.target).toFixed(1);
    out.push(
      `<line x1="${tx}" y1="${y + 6}" x2="${tx}" y2="${y + 42}" stroke="#212121" stroke-width="2" stroke-dasharray="4 3"/>`,
    );
  });

  const ly = height - 22;
  out.push(
    `<rect x="16" y="${ly - 10}" width="12" height="12" fill="${COLOURS.met}"/><text x="34" y="${ly}" font-size="11" fill="#424242">met</text>`,
    `<rect x="70" y="${ly - 10}" width="12" height="12" fill="${COLOURS.miss}"/><text x="88" y="${ly}" font-size="11" fill="#424242">not met</text>`,
    `<rect x="146" y="${ly - 10}" width="12" height="12" fill="${COLOURS.none}"/><text x="164" y="${ly}" font-size="11" fill="#424242">not measured</text>`,
    `<line x1="254" y1="${ly - 4}" x2="274" y2="${ly - 4}" stroke="#212121" stroke-width="2" stroke-dasharray="4 3"/><text x="280" y="${ly}" font-size="11" fill="#424242">target (ratios of medians; p99 and RSS rows: lower is better)</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
