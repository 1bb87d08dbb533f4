/**
 * XML with fast-xml-parser. Attributes become "@name" keys, element text next to attributes or
 * children is "#text", repeated elements become arrays. Entities declared in a DOCTYPE are never
 * expanded (no billion laughs, no external entities).
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { ToolInputError } from '../../src/shared/tool-error.js';
import {
  childPath,
  describe,
  inferScalar,
  isObject,
  type Json,
  MAX_DEPTH,
  parseFailure,
  toJsonModel,
  where,
} from './model.js';

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeReference(whole: string, ref: string): string {
  if (!ref.startsWith('#')) return PREDEFINED[ref] ?? whole;
  const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
  const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return valid ? String.fromCodePoint(code) : whole;
}

/**
 * Replaces fast-xml-parser's entity decoder: DOCTYPE entities handed to addInputEntities are
 * dropped, so `&name;` stays literal text; only the five predefined entities and character
 * references are decoded. Hand-written because the library's switch (processEntities) is all or nothing.
 */
const entityDecoder = {
  setExternalEntities: (): void => {},
  addInputEntities: (): void => {},
  reset: (): void => {},
  setXmlVersion: (): void => {},
  decode: (text: string): string =>
    text.includes('&')
      ? text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z_][\w.-]*);/g, decodeReference)
      : text,
};

const ATTR = '@';
const TEXT = '#text';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  entityDecoder,
  maxNestedTags: MAX_DEPTH,
});

export function isXmlCandidate(text: string): boolean {
  return text.trimStart().startsWith('<') && XMLValidator.validate(text) === true;
}

export function parseXml(text: string): Json {
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    const { msg, line, col } = verdict.err;
    throw new ToolInputError(`input is not valid XML: ${msg} (line ${line}, column ${col})`);
  }
  let raw: unknown;
  try {
    raw = parser.parse(text);
  } catch (err) {
    throw parseFailure('XML', err);
  }
  return toJsonModel(raw, (s) => inferScalar(s, false));
}

const NAME = /^[\p{L}_][\p{L}\p{N}_.:-]*$/u;

/** Refuses what XML cannot express; notes what it silently drops. */
function check(value: Json, path: string, warnings: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) warnings.push(`the empty array at ${where(path)} produces no element`);
    value.forEach((item, i) => {
      if (Array.isArray(item)) {
        throw new ToolInputError(
          `XML cannot hold an array directly inside an array (at ${childPath(path, i)})`,
        );
      }
      check(item, childPath(path, i), warnings);
    });
    return;
  }
  if (!isObject(value)) return;
  for (const [key, item] of Object.entries(value)) {
    const at = childPath(path, key);
    const isAttr = key.startsWith(ATTR);
    if ((isAttr || key === TEXT) && item !== null && typeof item === 'object') {
      throw new ToolInputError(`${at} is ${describe(item)}; XML attributes and text must be scalars`);
    }
    if (key !== TEXT && !NAME.test(isAttr ? key.slice(1) : key)) {
      throw new ToolInputError(`the key "${key}" at ${at} is not a valid XML name`);
    }
    check(item, at, warnings);
  }
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
});

export function writeXml(value: Json): { output: string; warnings: string[] } {
  const warnings: string[] = [];
  const keys = isObject(value) ? Object.keys(value) : [];
  const single = keys.length === 1 && keys[0] !== TEXT && !keys[0]!.startsWith(ATTR);
  let root = value;
  if (!(single && !Array.isArray((value as Record<string, Json>)[keys[0]!]))) {
    root = { root: Array.isArray(value) ? { item: value } : value };
    warnings.push('XML needs a single root element: the data was wrapped in <root>');
  }
  check(root, '', warnings);
  return { output: `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(root)}`, warnings };
}
