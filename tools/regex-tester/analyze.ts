/**
 * analyze mode: a static ReDoS check of the pattern with recheck (its pure JavaScript
 * backend, run synchronously in this worker thread: no child process, no Java, no native
 * binary, no extra thread). recheck is loaded on the first analysis, or by `prepare` when
 * the mode is analyze, so the API process and the other modes never load its 2.9 MB.
 */
import { createRequire } from 'node:module';
import type { Diagnostics } from 'recheck';
import { ToolInputError } from '#tool-kit';
import { boundError, unreadable } from './analyser-errors.js';

/** Longest pattern analysed: past it recheck's own budget checks are too far apart. */
export const MAX_ANALYZE_PATTERN_CHARS = 1000;
/** Longest attack string given whole; a longer one is described by `attack.pattern` only. */
export const MAX_ATTACK_STRING_CHARS = 1024;
/** Longest `attack.pattern` (recheck's JavaScript expression of the string). */
export const MAX_ATTACK_PATTERN_CHARS = 2000;
export const MAX_HOTSPOTS = 100;

type RecheckModule = typeof import('recheck');
let recheck: RecheckModule | null = null;

/** Loads recheck once per worker (about 70 ms on an idle core). */
export function loadRecheck(): RecheckModule {
  if (recheck === null) {
    const require = createRequire(import.meta.url);
    recheck = require('recheck') as RecheckModule;
  }
  return recheck;
}

let warm = false;

/**
 * Loads recheck and runs one fixed analysis, once per worker: its first analysis is slow
 * (the Scala.js runtime initialises and the JIT is cold: 150-400 ms on a loaded machine),
 * which would spend most of a run's budget. Bounded whatever the input (a fixed pattern
 * and a fixed time budget), so it may run in `prepare`, outside the run's deadline.
 */
export function warmUpRecheck(): void {
  if (warm) return;
  warm = true;
  analyzePattern('^(?:a|a?)+$|\\d+\\s*x$', 'i', { timeoutMs: 2000 });
}

export type ComplexityType = 'constant' | 'linear' | 'safe' | 'polynomial' | 'exponential';
export type UnknownKind = 'timeout' | 'too-complex' | 'unexpected';

/** A failure inside the analyser that is not about the pattern: its own text is not passed on. */
const UNEXPECTED = 'the analyser failed on this pattern without a verdict';

export interface Analysis {
  status: 'safe' | 'vulnerable' | 'unknown';
  checker: 'automaton' | 'fuzz' | null;
  complexity: { type: ComplexityType; degree?: number; summary: string } | null;
  attack: {
    pattern: string | null;
    string: string | null;
    length: number;
    pumps: { prefix: string; pump: string }[];
    suffix: string;
  } | null;
  hotspots: { start: number; end: number; temperature: 'heat' | 'normal' }[];
  reason: { kind: UnknownKind; message: string } | null;
}

/**
 * Flags as recheck reads them: it knows g i m s u y. `d` (match indices) does not change
 * what or how the engine matches, so it is left out; `v` is refused (recheck 4.5 parses
 * only the u syntax, not the v flag's set notation).
 */
export function analysisFlags(flags: string): string {
  if (flags.includes('v'))
    throw new ToolInputError(
      "flag 'v' is not supported in analyze mode (the analyser reads u-mode syntax only); use 'u' if the pattern has no set operations",
      'UNSUPPORTED_OPTION',
    );
  return flags.replace('d', '');
}

/** The recheck budget: its own clock stops the analysis, which then answers unknown (timeout). */
export interface AnalyzeOptions {
  timeoutMs: number;
}

export function analyzePattern(source: string, flags: string, opts: AnalyzeOptions): Analysis {
  if (source.length > MAX_ANALYZE_PATTERN_CHARS)
    throw new ToolInputError(
      `analyze takes patterns up to ${MAX_ANALYZE_PATTERN_CHARS} characters; this one has ${source.length}. Analyse the part you suspect`,
    );
  const lib = loadRecheck();
  // The backend is read from the environment on each call: 'pure' runs the Scala.js build
  // in this thread. The default ('synckit') would start a worker thread, and check()'s
  // 'auto' would spawn the native binary or Java when their optional packages exist.
  process.env.RECHECK_SYNC_BACKEND = 'pure';
  let d: Diagnostics;
  try {
    d = lib.checkSync(source, analysisFlags(flags), { timeout: opts.timeoutMs, randomSeed: 0 });
  } catch (err) {
    if (err instanceof ToolInputError) throw err;
    const bound = boundError(source, err);
    if (bound !== null) throw bound;
    // The analyser recurses over the pattern's syntax tree: a deep nesting overflows its stack.
    if (err instanceof RangeError)
      return unknown('too-complex', 'the pattern nests too deeply for the analyser');
    return unknown('unexpected', UNEXPECTED);
  }
  if (d.status === 'unknown') {
    const e = d.error;
    if (e.kind === 'timeout' || e.kind === 'cancel')
      return {
        ...unknown('timeout', `the analysis ran past its ${opts.timeoutMs} ms budget`),
        checker: d.checker ?? null,
      };
    if (e.kind === 'unexpected') return unknown('unexpected', UNEXPECTED);
    // The engine accepted the pattern before recheck saw it: 'invalid' and 'unsupported'
    // mean the analyser cannot read a part of it (analyser-errors.ts).
    throw unreadable(source, e.message);
  }
  const hotspots = d.status === 'vulnerable' ? d.hotspot.slice(0, MAX_HOTSPOTS) : [];
  const c = d.complexity;
  const complexity = {
    type: c.type,
    ...(c.type === 'polynomial' ? { degree: c.degree } : {}),
    summary: c.summary,
  };
  if (d.status === 'safe')
    return { status: 'safe', checker: d.checker, complexity, attack: null, hotspots, reason: null };
  const a = d.attack;
  const pumps = a.pumps.map((p) => ({ prefix: p.prefix, pump: p.pump }));
  const pumpChars = pumps.reduce((n, p) => n + p.prefix.length + p.pump.length, a.suffix.length);
  return {
    status: 'vulnerable',
    checker: d.checker,
    complexity,
    attack: {
      pattern: a.pattern.length <= MAX_ATTACK_PATTERN_CHARS ? a.pattern : null,
      string: a.string.length <= MAX_ATTACK_STRING_CHARS ? a.string : null,
      length: a.string.length,
      // The parts repeat to build longer attacks; left out when they would be larger than the rest.
      pumps: pumpChars <= MAX_ATTACK_PATTERN_CHARS ? pumps : [],
      suffix: pumpChars <= MAX_ATTACK_PATTERN_CHARS ? a.suffix : '',
    },
    hotspots,
    reason: null,
  };
}

function unknown(kind: UnknownKind, message: string): Analysis {
  return {
    status: 'unknown',
    checker: null,
    complexity: null,
    attack: null,
    hotspots: [],
    reason: { kind, message },
  };
}
