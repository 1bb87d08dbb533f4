/**
 * Test helper (not loaded by the tool): decodes a PNG data URL with ZXing (@zxing/library, an
 * independent decoder, devDependency), as printed: alpha composited over white.
 */
import {
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  QRCodeReader,
  ResultMetadataType,
  RGBLuminanceSource,
} from '@zxing/library';
import { PNG } from 'pngjs';

export interface ZxingRead {
  text: string;
  /** The error-correction level ZXing read from the symbol's format information. */
  level: string;
  width: number;
  height: number;
}

export function readPng(dataUrl: string) {
  return PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
}

/**
 * The text and level ZXing reads, or null when it finds no readable code. `pure`: the image
 * is the code alone, read module by module without locating it (ZXing's PURE_BARCODE).
 */
export function zxingDecode(dataUrl: string, pure = false): ZxingRead | null {
  const png = readPng(dataUrl);
  const luminance = new Uint8ClampedArray(png.width * png.height);
  for (let i = 0; i < luminance.length; i++) {
    const a = png.data[i * 4 + 3]!;
    const c = (k: number) => (png.data[i * 4 + k]! * a + 255 * (255 - a)) / 255;
    luminance[i] = Math.round(0.299 * c(0) + 0.587 * c(1) + 0.114 * c(2));
  }
  const source = new RGBLuminanceSource(luminance, png.width, png.height);
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.CHARACTER_SET, 'UTF-8'],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  if (pure) hints.set(DecodeHintType.PURE_BARCODE, true);
  try {
    const result = new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints);
    return {
      text: result.getText(),
      level: String(result.getResultMetadata().get(ResultMetadataType.ERROR_CORRECTION_LEVEL)),
      width: png.width,
      height: png.height,
    };
  } catch {
    return null;
  }
}
