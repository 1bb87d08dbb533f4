import { errorJson } from '../errors.js';
import type { RunResult, RunSuccess } from './run-types.js';

/** `{"ok":true,"result":…,"runtime":…}` with the result as the worker serialised it. */
export function successJson(result: RunSuccess): string {
  // A pipeline's answer carries its rate report in the body too: the runs it spent (docs/api.md, "Pipelines").
  if (result.meta.pipeline) return itemJson(result);
  return `{"ok":true,"result":${result.resultJson},"runtime":${JSON.stringify(result.meta)}}`;
}

/** One item of a batch request's answer: the run's own answer body, with its rate-limit block. */
export function itemJson(result: RunResult): string {
  if (!result.ok) return errorJson(result.error);
  const rate = JSON.stringify(result.rate.info);
  return `{"ok":true,"result":${result.resultJson},"runtime":${JSON.stringify(result.meta)},"rateLimit":${rate}}`;
}
