import type { Document } from 'yaml';
import { type ToolInput, ToolInputError } from '#tool-kit';
import { decode, encode } from './codec.js';
import { detect } from './detect.js';
import { FORMATS, type Format, MAX_INPUT_BYTES } from './tool.js';

function readText(value: string): string {
  // Characters are the schema's; multi-byte ones can still make the text too large.
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

function detectMode(text: string) {
  const { candidates } = detect(text);
  const best = candidates[0];
  return { format: best?.format ?? null, confidence: best?.confidence ?? 0, candidates };
}

/** `to` and `from` are formats of the schema's enum, or absent. */
function convertMode(text: string, to: Format | undefined, given: Format | undefined) {
  // The schema cannot require `to`: detect mode goes without it.
  if (!to)
    throw new ToolInputError(`to (the target format) is required to convert; one of: ${FORMATS.join(', ')}`);
  let from = given;
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

/** Input as the schema in tool.ts passed it: a non-empty string within its length, known formats. */
export default async function run(input: ToolInput, mode: string) {
  const text = readText(input.input as string);
  if (mode === 'convert')
    return convertMode(text, input.to as Format | undefined, input.from as Format | undefined);
  return detectMode(text);
}
