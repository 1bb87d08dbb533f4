/** INI with the `ini` package: top-level keys, [sections] (nested as [a.b]) and `key[] = v` arrays. */
import ini from 'ini';
import { ToolInputError } from '#tool-kit';
import { childPath, describe, inferScalar, isObject, type Json, parseFailure, toJsonModel } from './model.js';

const BLANK_OR_COMMENT = /^\s*(?:[;#].*)?$/;
const SECTION = /^\s*\[[^\]\n]+\]\s*(?:[;#].*)?$/;
const ASSIGNMENT = /^\s*[^\s=[;#][^=\n]*=.*$/;

/**
 * The `ini` parser accepts any text (a bare word becomes `word = true`), so detection first checks
 * the line grammar: only comments, [sections] and `key = value` lines (null when another line is
 * found). A text of only comments and sections is INI too, holding no values.
 */
export function iniShape(text: string): { sections: number; assignments: number } | null {
  let sections = 0;
  let assignments = 0;
  for (const line of text.split(/\r?\n/)) {
    if (BLANK_OR_COMMENT.test(line)) continue;
    if (SECTION.test(line)) sections += 1;
    else if (ASSIGNMENT.test(line)) assignments += 1;
    else return null;
  }
  return { sections, assignments };
}

export function parseIni(text: string): Json {
  let raw: unknown;
  try {
    raw = ini.parse(text);
  } catch (err) {
    throw parseFailure('INI', err);
  }
  return toJsonModel(raw, (s) => inferScalar(s, false));
}

/** A `__proto__` key or section, which the `ini` parser silently drops (its pollution guard). */
const PROTO_LINE = /^\s*(?:\[\s*__proto__\s*\]|(["']?)__proto__\1\s*(?:\[\])?\s*=)/m;

export function readIni(text: string): { value: Json; warnings: string[] } {
  const value = parseIni(text);
  const warnings = PROTO_LINE.test(text)
    ? ['a key or section named __proto__ was dropped: the INI reader ignores that name']
    : [];
  return { value, warnings };
}

/**
 * The `ini` writer quotes such keys, but its reader (like most) then splits at the "=" or the
 * "]", or drops the key: refuse rather than write a file that reads back as other data.
 */
function keyProblem(key: string, section: boolean): string | null {
  if (key === '__proto__') return 'INI readers drop the name __proto__';
  if (key.includes('=')) return 'a key cannot hold "="';
  if (section && key.includes(']')) return 'a section name cannot hold "]"';
  return null;
}

function checkSection(value: Json, path: string, warnings: string[]): void {
  if (!isObject(value)) return;
  for (const [key, item] of Object.entries(value)) {
    const at = childPath(path, key);
    const clash = keyProblem(key, isObject(item));
    if (clash) throw new ToolInputError(`the key "${key}" at ${at} cannot be written in INI: ${clash}`);
    if (Array.isArray(item)) {
      if (item.length === 0)
        warnings.push(`the empty array at ${at} cannot be written in INI and was dropped`);
      item.forEach((element, i) => {
        if (element !== null && typeof element === 'object') {
          throw new ToolInputError(
            `INI arrays hold scalars only; ${childPath(at, i)} is ${describe(element)} (use JSON, YAML or TOML)`,
          );
        }
      });
    } else {
      checkSection(item, at, warnings);
    }
  }
}

export function writeIni(value: Json): { output: string; warnings: string[] } {
  if (!isObject(value)) {
    throw new ToolInputError(
      `INI needs a top-level object of keys and sections; the data is ${describe(value)}`,
    );
  }
  const warnings: string[] = [];
  checkSection(value, '', warnings);
  return { output: ini.stringify(value, { whitespace: true }), warnings };
}
