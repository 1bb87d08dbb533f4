import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../src/http/json-depth.js';
import { spread } from './stats.js';

/**
 * What the JSON depth bound costs (docs/benchmarks.md, "The JSON depth scan"), in process:
 * the scan of 4 MB bodies against JSON.parse of the same text, and a 4 MB `[[[…]]]` refused
 * by the scan against the parse-then-walk the body parser did before. With `--url <hub>` it
 * also times the same bodies as POSTs to a running hub (`/api/tools/run/`): on an idle hub
 * the time to the answer is the time the body held the API thread.
 *
 *   npx tsx bench/json-depth.ts [--rounds 15] [--url http://127.0.0.1:3000]
 */
const { values } = parseArgs({ options: { rounds: { type: 'string' }, url: { type: 'string' } } });
const rounds = Number(values.rounds ?? 15);
/** 4 MB: the bodies fit under the default BODY_LIMIT_BYTES (4 MiB), so the hub reads them whole. */
const SIZE = 4_000_000;

/** The walk the body parser made after JSON.parse before the scan (bound 1,000). */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const key in value) {
    if (nestsDeeper((value as Record<string, unknown>)[key], levels - 1)) return true;
  }
  return false;
}

// Text with quotes, brackets and backslashes for the scan to skip.
const unit = 'the quick "brown" fox [jumps] over {the} lazy dog\\ ';
const items = Array.from({ length: SIZE / 40 }, (_, i) => ({ id: i, name: `n${i}`, tags: ['a', 'b'] }));
const small = JSON.stringify(items);
const bodies: Record<string, string> = {
  'flat, one long string': JSON.stringify({
    toolId: 'token-counter',
    a: unit.repeat(Math.floor((SIZE - 60) / (JSON.stringify(unit).length - 2))),
  }),
  // An array of small objects, cut after the last whole one under SIZE.
  'flat, small values': `${small.slice(0, small.lastIndexOf('},', SIZE - 2) + 1)}]`,
  'deep [[[…]]]': `${'['.repeat(SIZE / 2)}${']'.repeat(SIZE / 2)}`,
};

function time(fn: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return spread(times).median;
}

const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : 1)} ms`;
console.log(`Node ${process.version}, median of ${rounds} rounds, bound ${MAX_JSON_DEPTH}\n`);
console.log(
  '| body | size | scan | JSON.parse | the parser now: scan, then parse | before: parse, then walk |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, text] of Object.entries(bodies)) {
  const scan = time(() => jsonDepthExceeds(text, MAX_JSON_DEPTH));
  const parse = time(() => JSON.parse(text));
  const now = time(() => jsonDepthExceeds(text, MAX_JSON_DEPTH) || JSON.parse(text));
  const before = time(() => nestsDeeper(JSON.parse(text), 1000));
  const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
  console.log(`| ${name} | ${mb} MB | ${ms(scan)} | ${ms(parse)} | ${ms(now)} | ${ms(before)} |`);
}

if (values.url) {
  console.log(`\nPOST ${values.url}/api/tools/run/, median of ${rounds}:`);
  for (const [name, text] of Object.entries(bodies)) {
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      const res = await fetch(`${values.url}/api/tools/run/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      status = res.status;
    }
    console.log(`- ${name}: ${ms(spread(times).median)} (HTTP ${status})`);
  }
}
