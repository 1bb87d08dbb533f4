/**
 * qr-code: SVG, PNG (data URL) or UTF-8 block-character QR codes. `qrcode` encodes;
 * logo.ts picks the level for a logo area, png.ts and render.ts draw, verify.ts decodes the
 * result back (jsQR, pngjs: loaded here, in the worker, never by tool.ts).
 */
import { type ToolInput, ToolInputError } from '#tool-kit';
import { checkColors } from './colors.js';
import { chooseSymbol, type LogoArea, withLogoArea } from './logo.js';
import { layout, renderPng } from './png.js';
import { renderSvg, renderUtf8 } from './render.js';
import { DEFAULT_MARGIN, type Level } from './tool.js';
import { checkModules, checkPng, type DecodeCheck } from './verify.js';

/** The 4-module quiet zone the QR standard asks for; the default margin. */
export const MARGIN = DEFAULT_MARGIN;

/** A lone UTF-16 surrogate has no UTF-8 form, so no QR byte segment can carry it. */
function checkUnicode(data: string): void {
  if (/[\uD800-\uDFFF]/u.test(data)) {
    throw new ToolInputError('data is not valid Unicode: it holds a lone surrogate (\\uD800-\\uDFFF)');
  }
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Where the logo goes in the image, in pixels (svg: user units of width/height; utf8: none). */
function logoBox(mode: string, area: LogoArea, modules: number, size: number, margin: number) {
  if (mode === 'utf8') return null;
  if (mode === 'png') {
    const { scale, offset } = layout(modules, size, margin);
    const at = offset + area.start * scale;
    return { x: at, y: at, width: area.modules * scale, height: area.modules * scale };
  }
  const unit = size / (modules + 2 * margin);
  const at = round2((margin + area.start) * unit);
  const side = round2(area.modules * unit);
  return { x: at, y: at, width: side, height: side };
}

function refuseUnreadable(check: DecodeCheck): never {
  const what = check.decoded ? 'read back as different text' : 'could not be read back';
  throw new ToolInputError(
    `the code made ${what} (decode check with jsQR); use a larger size, a smaller logo area, ` +
      'a margin of 4 or colours with more contrast, or set decodeCheck to report to get it anyway',
  );
}

/**
 * Input as the schema in tool.ts passed it: data of 1 to MAX_DATA_CHARS characters (the
 * encoder then refuses what does not fit the level), a known level, size, margin and logo
 * in range, colours as strings (checked here), a known decodeCheck.
 */
export default async function run(input: ToolInput, mode: string) {
  const data = input.data as string;
  checkUnicode(data);
  const requested = input.errorCorrection as Level;
  const size = input.size as number;
  const margin = input.margin as number;
  const logo = input.logo as number;
  const colors = checkColors(input.dark as string, input.light as string);
  const { qr, level, area } = chooseSymbol(data, requested, logo);
  const modules = qr.modules.size;
  // Below one pixel per module (quiet zone included) there is no image to draw; refuse.
  if (mode !== 'utf8' && size < modules + 2 * margin) {
    throw new ToolInputError(
      `size ${size} px is too small for this code (version ${qr.version}: ${modules} modules plus a ` +
        `${margin}-module margin each side); use at least ${modules + 2 * margin}`,
    );
  }
  const matrix = withLogoArea(qr.modules, area);
  let out: { data: string; size: number | null; mimeType: string };
  if (mode === 'png') {
    out = { data: renderPng(matrix, size, margin, colors), size, mimeType: 'image/png' };
  } else if (mode === 'svg') {
    out = { data: renderSvg(matrix, size, margin, colors), size, mimeType: 'image/svg+xml' };
  } else {
    // utf8: two module rows per text line, █ ▀ ▄ for dark modules; size and colours do not apply.
    out = { data: renderUtf8(matrix, margin), size: null, mimeType: 'text/plain; charset=utf-8' };
  }
  let decodeCheck: DecodeCheck | null = null;
  if (input.decodeCheck !== 'off') {
    decodeCheck =
      mode === 'png'
        ? checkPng(out.data, data, modules, margin)
        : checkModules(matrix, data, margin, mode === 'svg' ? colors : checkColors('#000', '#fff'));
    if (!decodeCheck.matches && input.decodeCheck === 'require') refuseUnreadable(decodeCheck);
  }
  return {
    format: mode,
    version: qr.version,
    errorCorrection: level,
    modules,
    margin,
    ...out,
    errorCorrectionRaised: level !== requested,
    dark: colors.darkHex,
    light: colors.lightHex,
    contrast: round2(colors.contrast),
    logoArea: area && {
      fraction: logo,
      modules: area.modules,
      start: area.start,
      box: logoBox(mode, area, modules, size, margin),
    },
    decodeCheck,
  };
}
