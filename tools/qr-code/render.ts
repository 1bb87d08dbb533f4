/**
 * SVG and UTF-8 renderings of a module matrix (the logo area already blanked). The SVG is
 * the markup the `qrcode` package writes (one background path, one stroked path of
 * horizontal runs), so black-on-white codes are byte for byte what its toString gives;
 * rendering here is what lets the logo area and any margin apply.
 */
import type { Rgba } from './colors.js';
import type { ModuleMatrix } from './logo.js';

function colorAttribute(attribute: string, c: Rgba): string {
  const hex = `#${[c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  const alpha = c.a / 255;
  return alpha < 1
    ? `${attribute}="${hex}" ${attribute}-opacity="${alpha.toFixed(2).slice(1)}"`
    : `${attribute}="${hex}"`;
}

/** Runs of dark modules as path commands: M to a row's first run, m between runs, h for a run. */
function darkPath(matrix: ModuleMatrix, margin: number): string {
  const n = matrix.size;
  let path = '';
  for (let r = 0; r < n; r++) {
    let newRow = true;
    let gap = 0;
    let run = 0;
    for (let c = 0; c < n; c++) {
      if (!matrix.get(r, c)) {
        gap++;
        continue;
      }
      run++;
      if (c === 0 || !matrix.get(r, c - 1)) {
        path += newRow ? `M${c + margin} ${0.5 + r + margin}` : `m${gap} 0`;
        gap = 0;
        newRow = false;
      }
      if (c + 1 >= n || !matrix.get(r, c + 1)) {
        path += `h${run}`;
        run = 0;
      }
    }
  }
  return path;
}

export function renderSvg(
  matrix: ModuleMatrix,
  size: number,
  margin: number,
  colors: { dark: Rgba; light: Rgba },
): string {
  const side = matrix.size + 2 * margin;
  const background =
    colors.light.a === 0 ? '' : `<path ${colorAttribute('fill', colors.light)} d="M0 0h${side}v${side}H0z"/>`;
  const modules = `<path ${colorAttribute('stroke', colors.dark)} d="${darkPath(matrix, margin)}"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${side} ${side}" ` +
    `shape-rendering="crispEdges">${background}${modules}</svg>\n`
  );
}

const BLOCKS = [' ', '▄', '▀', '█'] as const;

/** Two module rows per line, the margin included: █ both dark, ▀ top only, ▄ bottom only. */
export function renderUtf8(matrix: ModuleMatrix, margin: number): string {
  const n = matrix.size;
  const side = n + 2 * margin;
  const dark = (r: number, c: number) => {
    const row = r - margin;
    const col = c - margin;
    return row >= 0 && row < n && col >= 0 && col < n && matrix.get(row, col) ? 1 : 0;
  };
  const lines: string[] = [];
  for (let r = 0; r < side; r += 2) {
    let line = '';
    for (let c = 0; c < side; c++) line += BLOCKS[dark(r, c) * 2 + dark(r + 1, c)];
    lines.push(line);
  }
  return lines.join('\n');
}
