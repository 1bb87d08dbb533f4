import type { Document } from 'yaml';
import type { ToolInput } from '../../src/shared/tool-def.js';
import { ToolInputError, unsupported } from '../../src/shared/tool-error.js';
import { decode, encode } from './codec.js';
import { detect } from './detect.js';
import { FORMATS, type Format, MODES } from './tool.js';

export const MAX_INPUT_BYTES = 524288;

function readText(value: unknown): string {
  if (typeof value !== 'string') throw new ToolInputError('input must be a string');
  if (Buffer.byteLength(value, 'utf8') > MAX_INPUT_BYTES) {
    throw new ToolInputError(`input is larger than ${MAX_INPUT_BYTES} bytes`);
  }
  const text = value.startsWith('\uFEFF') ? value.slice(1) : value;
  // Nothing but spaces, tabs and line breaks: blank in every format. Not trim(), which also
  // drops characters that are data in YAML (a lone no-break space or U+2028 is a string).
  // A text of comments is not blank: it is an empty TOML table, an empty YAML stream.
  if (/^[ \t\r\n]*$/.test(text)) throw new ToolInputError('input is empty');
  return text;
}

function readFormat(value: unknown, field: 'to' | 'from'): Format | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !(FORMATS as readonly string[]).includes(value)) {
    throw unsupported(field === 'to' ? 'target format' : 'source format', value, FORMATS);
  }
  return value as Format;
}

function detectMode(text: string) {
  const { candidates } = detect(text);
  const best = candidates[0];
  return { format: best?.format ?? null, confidence: best?.confidence ?? 0, candidates };
}

function convertMode(text: string, toValue: unknown, fromValue: unknown) {
  const to = readFormat(toValue, 'to');
  if (!to)
    throw new ToolInputError(`to (the target format) is required to convert; one of: ${FORMATS.join(', ')}`);
  let from = readFormat(fromValue, 'from');
  const detected = from === undefined;
  let confidence: number | undefined;
  let yamlDocuments: Document[] | undefined;
  if (!from) {
    const detection = detect(text);
    const best = detection.candidates[0];
    if (!best) {
      throw new ToolInputError(`could not recognise the input as any of ${FORMATS.join(', ')}; pass from`);
    }
    from = best.format;
    confidence = best.confidence;
    yamlDocuments = detection.yamlDocuments;
  }
  const decoded = decode(from, text, yamlDocuments);
  const encoded = encode(to, decoded.value);
  return {
    from,
    to,
    output: encoded.output,
    detected,
    ...(confidence === undefined ? {} : { confidence }),
    warnings: [...decoded.warnings, ...encoded.warnings],
  };
}

export default async function run(input: ToolInput, mode: string) {
  if (!MODES.includes(mode)) throw unsupported('mode', mode, MODES);
  const text = readText(input.input);
  return mode === 'detect' ? detectMode(text) : convertMode(text, input.to, input.from);
}
