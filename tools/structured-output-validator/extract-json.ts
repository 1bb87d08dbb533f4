/**
 * Pulls one JSON value out of LLM output: the whole text, else a ``` code fence, else a
 * balanced {...} or [...] embedded in prose. Hand-written: no installed library extracts
 * JSON from fences or prose (JSON parsers, YAML included, want the whole text to be the
 * document). Only extraction: broken JSON (trailing commas, comments) is not repaired.
 * Every scan is bounded (fence count, start attempts, characters visited).
 */
import { describeJsonError, lineColumn } from './json-input.js';

export type ExtractedFrom = 'raw' | 'code-fence' | 'embedded';

export type Extraction =
  | {
      ok: true;
      value: unknown;
      text: string;
      from: ExtractedFrom;
      start: number;
      end: number;
      candidates: number;
    }
  | { ok: false; reason: string };

const MAX_FENCES = 32;
const MAX_ATTEMPTS = 64;
const MAX_SCAN = 8_000_000;
const MAX_NESTING = 512;
const JSON_TAGS = new Set(['json', 'jsonc', 'json5']);

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** `whole` and `offset` place error line/columns in the whole target, not in the slice. */
function tryParse(text: string, whole = text, offset = 0): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: describeJsonError(text, err, whole, offset) };
  }
}

function trimmedSpan(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

interface Fence {
  tag: string;
  /** Offset of the opening backticks. */
  open: number;
  start: number;
  end: number;
}

/** Fences are runs of 3+ backticks paired in order; an unclosed last fence runs to the end (truncated output). */
function findFences(text: string): Fence[] {
  const runs: { index: number; length: number }[] = [];
  for (const m of text.matchAll(/`{3,}/g)) {
    runs.push({ index: m.index, length: m[0].length });
    if (runs.length >= MAX_FENCES * 2) break;
  }
  const fences: Fence[] = [];
  for (let k = 0; k < runs.length; k += 2) {
    const open = runs[k]!;
    let start = open.index + open.length;
    const end = runs[k + 1]?.index ?? text.length;
    // The info string is a word right after the fence on the same line: ```json
    const info = /^[^\S\n]*([A-Za-z][\w.+#-]*)(?=\s|$)/.exec(text.slice(start, Math.min(end, start + 64)));
    const tag = info?.[1]?.toLowerCase() ?? '';
    if (info) start += info[0].length;
    fences.push({ tag, open: open.index, ...trimmedSpan(text, start, end) });
  }
  const rank = (f: Fence) => (JSON_TAGS.has(f.tag) ? 0 : f.tag === '' ? 1 : 2);
  return fences.sort((x, y) => rank(x) - rank(y));
}

/** End (exclusive) of the balanced value opening at `start`, or -1; strings are skipped so brackets in them do not count. */
function scanBalanced(text: string, start: number, budget: { left: number }): number {
  const closers: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    if (--budget.left <= 0) return -1;
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (closers.length >= MAX_NESTING) return -1;
      closers.push(c === '{' ? '}' : ']');
    } else if (c === '}' || c === ']') {
      if (closers.pop() !== c) return -1;
      if (closers.length === 0) return i + 1;
    }
  }
  return -1;
}

/** The longest parseable {...} or [...] in the text (so a "[1]" footnote does not beat the real object). */
function findEmbedded(text: string): Extraction {
  const budget = { left: MAX_SCAN };
  let best: Extract<Extraction, { ok: true }> | null = null;
  let candidates = 0;
  let firstError = '';
  let i = 0;
  for (let attempts = 0; attempts < MAX_ATTEMPTS && budget.left > 0; attempts++) {
    const open = text.slice(i).search(/[[{]/);
    if (open < 0) break;
    i += open;
    const end = scanBalanced(text, i, budget);
    if (end > 0) {
      const slice = text.slice(i, end);
      budget.left -= slice.length;
      const parsed = tryParse(slice, text, i);
      if (parsed.ok) {
        candidates++;
        if (best === null || slice.length > best.text.length) {
          best = {
            ok: true,
            value: parsed.value,
            text: slice,
            from: 'embedded',
            start: i,
            end,
            candidates: 0,
          };
        }
        i = end;
        continue;
      }
      if (firstError === '') {
        const { line, column } = lineColumn(text, i);
        const what = text[i] === '{' ? '{...}' : '[...]';
        firstError = `the ${what} at line ${line}, column ${column} is not valid JSON: ${parsed.error}`;
      }
    }
    i++;
  }
  if (best) return { ...best, candidates };
  return {
    ok: false,
    reason: firstError
      ? `no valid JSON found in target: ${firstError}`
      : 'no JSON found in target: it is not JSON, has no ``` code fence and no {...} or [...] in its text',
  };
}

export function extractJson(input: string): Extraction {
  const whole = trimmedSpan(input, input.startsWith('\uFEFF') ? 1 : 0, input.length);
  const wholeText = input.slice(whole.start, whole.end);
  if (wholeText === '') return { ok: false, reason: 'target is empty: there is no JSON to extract' };
  const raw = tryParse(wholeText, input, whole.start);
  if (raw.ok) return { ok: true, value: raw.value, text: wholeText, from: 'raw', ...whole, candidates: 1 };

  let fenceError = '';
  for (const fence of findFences(input)) {
    const body = input.slice(fence.start, fence.end);
    const parsed = tryParse(body, input, fence.start);
    if (parsed.ok) {
      const { start, end } = fence;
      return { ok: true, value: parsed.value, text: body, from: 'code-fence', start, end, candidates: 1 };
    }
    // Other languages (```python) may hold no JSON at all: only json or untagged fences count.
    if (fenceError === '' && (fence.tag === '' || JSON_TAGS.has(fence.tag))) {
      const { line } = lineColumn(input, fence.open);
      const why = body === '' ? 'it is empty' : parsed.error;
      fenceError = `the code fence at line ${line} holds no valid JSON: ${why}`;
    }
  }
  // A json (or untagged) fence that does not parse is the answer: scanning inside it for
  // a smaller {...} would report a fragment as if it were the output.
  if (fenceError !== '') return { ok: false, reason: fenceError };
  return findEmbedded(input);
}
