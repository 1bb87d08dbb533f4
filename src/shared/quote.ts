/** Longest run of a client's value echoed back in a message. */
export const ECHO_MAX_CHARS = 100;

/**
 * A client-supplied value as it appears in an error message: quoted and cut to
 * `max` characters, then `…`, so that a 200 kB toolId never comes back in full.
 * Lone surrogates at the cut are dropped so the message stays valid UTF-16.
 */
export function quote(value: unknown, max = ECHO_MAX_CHARS): string {
  return `'${cut(value, max)}'`;
}

/** A client-supplied value cut as quote() cuts it, without the quotes (a value inside a text already). */
export function cut(value: unknown, max = ECHO_MAX_CHARS): string {
  const text = typeof value === 'string' ? value : String(value);
  if (text.length <= max) return text;
  let kept = text.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return `${kept}…`;
}

/** Longest error message of any answer: the last bound, after every quote(). */
export const MESSAGE_MAX_CHARS = 1000;

export function boundMessage(message: string): string {
  return message.length <= MESSAGE_MAX_CHARS ? message : `${message.slice(0, MESSAGE_MAX_CHARS - 1)}…`;
}
