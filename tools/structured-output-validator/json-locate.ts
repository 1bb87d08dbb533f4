/**
 * Finds where JSON text stops being valid (RFC 8259 grammar), for error messages.
 * Hand-written because V8's JSON.parse often reports no position ("Unexpected token '}',
 * ... is not valid JSON") and no installed library reports one. Runs only after
 * JSON.parse has failed; iterative (explicit stack) and linear in the text length.
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = '"\\/bfnrtu';
const HEX4 = /[0-9a-fA-F]{4}/y;

/** End of the string starting at `i` (a quote), or -(offset + 1) of the error. */
function scanString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c < 0x20) return -(j + 1);
    if (c === 92) {
      const e = text[j + 1];
      if (e === undefined || !ESCAPES.includes(e)) return -(j + 2);
      if (e === 'u') {
        HEX4.lastIndex = j + 2;
        if (!HEX4.test(text)) return -(j + 3);
        j += 4;
      }
      j++;
    }
  }
  return -(text.length + 1);
}

/** End of the scalar (string, number, literal) at `i`, or -(offset + 1) of the error. */
function scanScalar(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return scanString(text, i);
  if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    return m && m[0] !== '-' ? i + m[0].length : -(i + (c === '-' ? 2 : 1));
  }
  for (const word of ['true', 'false', 'null']) {
    if (c !== word[0]) continue;
    for (let k = 1; k < word.length; k++) if (text[i + k] !== word[k]) return -(i + k + 1);
    return i + word.length;
  }
  return -(i + 1);
}

/** Offset of the first syntax error, or -1 when the text is valid JSON. */
export function findJsonErrorOffset(text: string): number {
  const stack: string[] = [];
  let i = 0;
  let state: 'value' | 'key' | 'after' = 'value';
  const skipWs = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  for (;;) {
    skipWs();
    const c = text[i];
    if (state === 'value') {
      if (c === '{' || c === '[') {
        i++;
        skipWs();
        if (text[i] === (c === '{' ? '}' : ']')) {
          i++;
          state = 'after';
        } else {
          stack.push(c);
          state = c === '{' ? 'key' : 'value';
        }
        continue;
      }
      const end = scanScalar(text, i);
      if (end < 0) return -end - 1;
      i = end;
      state = 'after';
    } else if (state === 'key') {
      if (c !== '"') return i;
      const end = scanString(text, i);
      if (end < 0) return -end - 1;
      i = end;
      skipWs();
      if (text[i] !== ':') return i;
      i++;
      state = 'value';
    } else {
      const top = stack[stack.length - 1];
      if (top === undefined) return i < text.length ? i : -1;
      if (c === ',') {
        i++;
        state = top === '{' ? 'key' : 'value';
      } else if (c === (top === '{' ? '}' : ']')) {
        i++;
        stack.pop();
      } else return i;
    }
  }
}
