/**
 * XML with fast-xml-parser. Attributes become "@name" keys, element text next to attributes or
 * children is "#text", repeated elements become arrays. Entities declared in a DOCTYPE are never
 * expanded (no billion laughs, no external entities).
 */
import { XMLBuilder, XMLParser, XMLValidator, type XmlBuilderOptions } from 'fast-xml-parser';
import { ToolInputError } from '#tool-kit';
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
  // The library renames elements such as <toString> to "__toString" to protect its own
  // objects; toJsonModel copies everything into fresh objects, so the names are kept as data.
  onDangerousProperty: (name: string) => name,
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
/** Element names the parser refuses outright (its prototype-pollution guard). */
const REFUSED_ELEMENTS = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * Characters XML 1.0 cannot hold, not even as references: C0 controls other than tab, LF and
 * CR, U+FFFE, U+FFFF and unpaired surrogates. Written raw they make the document ill-formed.
 */
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

function checkText(text: string, path: string): void {
  const bad = NOT_XML_CHAR.exec(text);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new ToolInputError(`the text at ${where(path)} holds U+${code}, which XML 1.0 cannot represent`);
  }
}

/** Refuses what XML cannot express; notes what it silently drops. */
function check(value: Json, path: string, warnings: string[]): void {
  if (typeof value === 'string') checkText(value, path);
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
    if (REFUSED_ELEMENTS.has(key)) {
      throw new ToolInputError(
        `the key "${key}" at ${at} cannot be an XML element here: the XML reader refuses the names __proto__, constructor and prototype`,
      );
    }
    check(item, at, warnings);
  }
}

// `entities` is a runtime option of the builder its typings omit: the library's escapes plus CR,
// since XML readers turn a raw CR (LF) into LF. (Raw tabs and newlines in attributes still read
// back as spaces in other readers; this tool's own reader keeps them.)
const builderOptions: XmlBuilderOptions & { entities: { regex: RegExp; val: string }[] } = {
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  entities: [
    { regex: /&/g, val: '&amp;' },
    { regex: />/g, val: '&gt;' },
    { regex: /</g, val: '&lt;' },
    { regex: /'/g, val: '&apos;' },
    { regex: /"/g, val: '&quot;' },
    { regex: /\r/g, val: '&#13;' },
  ],
};
const builder = new XMLBuilder(builderOptions);

/** `written`: the data as laid out in the document (wrapped in <root> when it had to be). */
export function writeXml(value: Json): { output: string; warnings: string[]; written: Json } {
  const warnings: string[] = [];
  const keys = isObject(value) ? Object.keys(value) : [];
  const single = keys.length === 1 && keys[0] !== TEXT && !keys[0]!.startsWith(ATTR);
  let root = value;
  if (!(single && !Array.isArray((value as Record<string, Json>)[keys[0]!]))) {
    root = { root: Array.isArray(value) ? { item: value } : value };
    warnings.push('XML needs a single root element: the data was wrapped in <root>');
  }
  check(root, '', warnings);
  return {
    output: `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(root)}`,
    warnings,
    written: root,
  };
}
