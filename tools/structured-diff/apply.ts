/**
 * Applies an RFC 6902 JSON Patch with fast-json-patch, behind checks of our own. Its own
 * validation (`validateOperation`) is not used: it resolves paths with `obj[key] === undefined`,
 * so inherited members (`/toString`, `/constructor/prototype`) pass as present; it deep-clones
 * the whole document to check each move and copy (quadratic); its `test` calls
 * `b.hasOwnProperty`, which throws on a document with a "hasOwnProperty" key; and its move and
 * copy re-enter with the prototype guard on, refusing keys that are plain data here. So each
 * operation is checked here first (shape, pointer syntax, every step an own member, array
 * indices as RFC 6901 writes them, `__proto__` refused, move not into itself, the result's size),
 * `test` is compared here, move and copy are done as remove/add, and fast-json-patch's
 * `applyOperation` does add, remove and replace with its guard off: every step was checked to
 * be an own member, and a `__proto__` key can neither be in a document nor in a path.
 */
import jsonpatch, { type Operation } from 'fast-json-patch';
import { quote, ToolInputError } from '#tool-kit';
import { isObject, jsonEqual } from './merge-patch.js';

/** Largest result, in characters of its JSON text: stops copy amplification (a copy doubles). */
export const MAX_RESULT_CHARS = 2_097_152;
/** Most operations applied (the input size bounds a patch to fewer anyway). */
export const MAX_APPLY_OPERATIONS = 100_000;

const OPERATIONS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;
type Kind = (typeof OPERATIONS)[number];
/** RFC 6901: an array index is 0 or digits without a leading zero. */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;
/** Pointer characters echoed in a message. */
const SHOWN_CHARS = 60;

/** The reference tokens of a JSON Pointer, or null when it is not one. */
function parsePointer(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  const tokens = pointer.slice(1).split('/');
  if (tokens.some((t) => /~([^01]|$)/.test(t))) return null;
  return tokens.map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The member `token` of `node`, own members and valid indices only; undefined when absent. */
function child(node: unknown, token: string): unknown {
  if (Array.isArray(node)) return ARRAY_INDEX.test(token) ? node[Number(token)] : undefined;
  if (isObject(node)) return Object.hasOwn(node, token) ? node[token] : undefined;
  return undefined;
}

/** The value at `tokens` (JSON has no undefined, so undefined means absent). */
function valueAt(document: unknown, tokens: readonly string[]): unknown {
  let node = document;
  for (const token of tokens) {
    node = child(node, token);
    if (node === undefined) return undefined;
  }
  return node;
}

const jsonChars = (value: unknown): number => JSON.stringify(value).length;

/** Applies `patch` (already checked to be an array) to `document`, which it may modify. */
export function applyJsonPatch(document: unknown, patch: readonly unknown[]): unknown {
  if (patch.length > MAX_APPLY_OPERATIONS) {
    throw new ToolInputError(
      `the patch has ${patch.length} operations, more than the ${MAX_APPLY_OPERATIONS} apply takes`,
    );
  }
  let doc = document;
  let size = jsonChars(doc);
  if (size > MAX_RESULT_CHARS) {
    throw new ToolInputError(
      `document is larger than ${MAX_RESULT_CHARS} characters as JSON, more than apply returns`,
    );
  }
  patch.forEach((raw, index) => {
    const at = `patch[${index}]`;
    if (!isObject(raw)) throw new ToolInputError(`${at} is not an operation object`);
    const kind = raw.op as Kind;
    if (typeof kind !== 'string' || !OPERATIONS.includes(kind)) {
      throw new ToolInputError(
        `${at}: op ${raw.op === undefined ? 'is missing' : `${quote(raw.op, SHOWN_CHARS)} is not one`}; use one of ${OPERATIONS.join(', ')}`,
      );
    }
    const pointerOf = (member: 'path' | 'from'): string[] => {
      const text = raw[member];
      if (typeof text !== 'string') {
        throw new ToolInputError(
          `${at} (${kind}): ${member} is ${text === undefined ? 'missing' : 'not a string'}`,
        );
      }
      const tokens = parsePointer(text);
      if (tokens === null) {
        throw new ToolInputError(
          `${at} (${kind}): ${member} ${quote(text, SHOWN_CHARS)} is not a JSON Pointer`,
        );
      }
      if (tokens.includes('__proto__')) {
        throw new ToolInputError(
          `${at} (${kind}): ${member} ${quote(text, SHOWN_CHARS)} goes through __proto__, which is refused`,
        );
      }
      return tokens;
    };
    const path = pointerOf('path');
    const where = `${at} (${kind} at ${quote(raw.path, SHOWN_CHARS)})`;
    if ((kind === 'add' || kind === 'replace' || kind === 'test') && !Object.hasOwn(raw, 'value')) {
      throw new ToolInputError(`${where}: value is missing`);
    }
    const fail = (reason: string): never => {
      throw new ToolInputError(`${where}: ${reason}`);
    };
    const grow = (by: number) => {
      size += by;
      if (size > MAX_RESULT_CHARS) {
        fail(
          `the result would be larger than ${MAX_RESULT_CHARS} characters as JSON; refused (copies can double a document)`,
        );
      }
    };
    const apply = (operation: Operation) => {
      doc = jsonpatch.applyOperation(doc, operation, false, true, false, index).newDocument;
    };

    switch (kind) {
      case 'add':
        checkTarget(doc, path, fail);
        grow(jsonChars(raw.value));
        apply({ op: 'add', path: raw.path as string, value: raw.value });
        return;
      case 'remove':
      case 'replace':
      case 'test': {
        const current = valueAt(doc, path);
        if (current === undefined) fail('the path does not exist');
        if (kind === 'test') {
          if (!jsonEqual(current, raw.value)) fail('test failed: the value there differs');
          return;
        }
        if (kind === 'replace') grow(jsonChars(raw.value));
        apply({ op: kind, path: raw.path as string, value: raw.value } as Operation);
        return;
      }
      case 'move':
      case 'copy': {
        const from = pointerOf('from');
        const value = valueAt(doc, from);
        if (value === undefined) fail(`from ${quote(raw.from, SHOWN_CHARS)} does not exist`);
        if (kind === 'move' && from.length < path.length && from.every((t, i) => t === path[i])) {
          fail('cannot move a value into one of its own members');
        }
        if (kind === 'move') {
          if (raw.from === raw.path) return;
          apply({ op: 'remove', path: raw.from as string });
        }
        // The target is checked once the value has left its place (a move within one array).
        checkTarget(doc, path, fail);
        if (kind === 'copy') grow(jsonChars(value));
        apply({
          op: 'add',
          path: raw.path as string,
          value: kind === 'copy' ? jsonpatch.deepClone(value) : value,
        });
        return;
      }
    }
  });
  return doc;
}

/** Where a value goes (add, and the target of move and copy): its parent must exist. */
function checkTarget(doc: unknown, path: string[], fail: (reason: string) => never): void {
  const last = path.at(-1);
  if (last === undefined) return;
  const parent = valueAt(doc, path.slice(0, -1));
  if (Array.isArray(parent)) {
    if (last !== '-' && !(ARRAY_INDEX.test(last) && Number(last) <= parent.length)) {
      fail(`${quote(last, SHOWN_CHARS)} is not an index of the array (0 to ${parent.length}, or -)`);
    }
  } else if (!isObject(parent)) {
    fail(
      parent === undefined
        ? 'the parent of the path does not exist'
        : 'the parent of the path is not an object or array',
    );
  }
}
