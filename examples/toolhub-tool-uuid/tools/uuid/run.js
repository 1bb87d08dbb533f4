import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Version 7 (RFC 9562, section 5.7): 48 bits of Unix milliseconds, the version (0111), 12
 * random bits, the variant (10), 62 random bits.
 */
export function uuidV7(ms = Date.now()) {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A refusal of the input: the hub answers it with its `code` (400), as it does the hub's own
 * ToolInputError, which a package cannot import (docs/writing-a-tool.md).
 */
function refuse(message) {
  return Object.assign(new Error(message), { name: 'ToolInputError', code: 'INVALID_INPUT' });
}

/** The time of a v7 UUID: `at` when given (its 48 bits hold 1970 to 10889), else now. */
function timeOf(at) {
  if (at === undefined) return Date.now();
  const ms = Date.parse(at);
  if (!(ms >= 0 && ms < 2 ** 48)) throw refuse(`at ${JSON.stringify(at)} is outside what a UUID v7 can hold`);
  return ms;
}

/** Input as the hub checked it against the schema in tool.js: `count` an integer of 1 to 100. */
export default function run(input, mode) {
  const count = input.count ?? 1;
  const uuids = [];
  if (input.at !== undefined && mode !== 'v7') throw refuse('at applies to version v7 only');
  if (mode === 'v7') {
    const ms = timeOf(input.at);
    for (let i = 0; i < count; i++) uuids.push(uuidV7(ms));
    // One millisecond for the whole run: the random bits order them, so sorted they stay unique and ascending.
    uuids.sort();
  } else {
    for (let i = 0; i < count; i++) uuids.push(randomUUID());
  }
  return { version: mode, uuids };
}
