/**
 * A small strict parser of RFC 9651 Structured Field Lists of Items, for the tests of the
 * IETF RateLimit fields (no parser is among the project's packages). It takes what the
 * hub sends (Strings, Tokens, Integers, Byte Sequences, Booleans and their parameters) and
 * throws on anything the RFC's parsing algorithm would fail, so a malformed field fails the
 * test instead of being read leniently. Inner Lists and Decimals are refused: no RateLimit
 * item has them.
 */
export type BareItem = string | number | boolean | { token: string } | { bytes: string };
export interface SfItem {
  value: BareItem;
  params: Record<string, BareItem>;
}

export function parseList(field: string): SfItem[] {
  const p = { s: field.replace(/^ +| +$/g, ''), i: 0 };
  const items: SfItem[] = [];
  while (p.i < p.s.length) {
    items.push({ value: bareItem(p), params: parameters(p) });
    skip(p, /[ \t]/);
    if (p.i === p.s.length) return items;
    if (p.s[p.i] !== ',') fail(p, 'expected a comma');
    p.i++;
    skip(p, /[ \t]/);
    if (p.i === p.s.length) fail(p, 'a trailing comma');
  }
  return items;
}

interface Cursor {
  s: string;
  i: number;
}

function fail(p: Cursor, why: string): never {
  throw new Error(`not a Structured Field List (${why} at ${p.i}): ${p.s}`);
}

function skip(p: Cursor, re: RegExp): void {
  while (p.i < p.s.length && re.test(p.s[p.i]!)) p.i++;
}

function parameters(p: Cursor): Record<string, BareItem> {
  const out: Record<string, BareItem> = {};
  while (p.s[p.i] === ';') {
    p.i++;
    skip(p, / /);
    const key = /^[a-z*][a-z0-9_.*-]*/.exec(p.s.slice(p.i))?.[0];
    if (!key) fail(p, 'a bad parameter key');
    p.i += key.length;
    let value: BareItem = true;
    if (p.s[p.i] === '=') {
      p.i++;
      value = bareItem(p);
    }
    out[key] = value;
  }
  return out;
}

function bareItem(p: Cursor): BareItem {
  const rest = p.s.slice(p.i);
  const c = rest[0];
  if (c === '"') return string(p);
  if (c === ':') {
    const m = /^:([A-Za-z0-9+/=]*):/.exec(rest) ?? fail(p, 'a bad byte sequence');
    p.i += m[0].length;
    return { bytes: m[1]! };
  }
  if (c === '?') {
    const m = /^\?[01]/.exec(rest) ?? fail(p, 'a bad boolean');
    p.i += 2;
    return m[0] === '?1';
  }
  if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
    const m = /^-?[0-9]{1,15}/.exec(rest) ?? fail(p, 'a bad integer');
    if (rest[m[0].length] === '.') fail(p, 'a decimal');
    p.i += m[0].length;
    return Number(m[0]);
  }
  const m = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/.exec(rest) ?? fail(p, 'no item');
  p.i += m[0].length;
  return { token: m[0] };
}

function string(p: Cursor): string {
  let out = '';
  p.i++;
  while (p.i < p.s.length) {
    const c = p.s[p.i++]!;
    if (c === '"') return out;
    if (c === '\\') {
      const next = p.s[p.i++];
      if (next !== '"' && next !== '\\') fail(p, 'a bad escape');
      out += next;
    } else if (c < ' ' || c > '~') fail(p, 'a character a String cannot hold');
    else out += c;
  }
  fail(p, 'an unterminated string');
}
