import { HubError } from '../errors.js';
import { SOURCES, type Source } from '../run-meta.js';

/** A batch request's body (docs/api.md, "Batch runs"), checked: its runs (at most `maxRuns`) and `source`. */
export function readBatchRequest(
  body: unknown,
  maxRuns: number,
): { runs: unknown[]; source: Source | undefined } {
  const shape = 'the body must be a JSON object {"runs": [ … ], "source"?: …}';
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new HubError('INVALID_INPUT', shape);
  const { runs, source, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw new HubError('INVALID_INPUT', `unknown field '${extra.slice(0, 100)}'; ${shape}`);
  if (!Array.isArray(runs) || runs.length === 0)
    throw new HubError('INVALID_INPUT', `runs must be a non-empty array; ${shape}`);
  if (runs.length > maxRuns) {
    throw new HubError(
      'INPUT_TOO_LARGE',
      `a batch request holds at most ${maxRuns} runs; this one has ${runs.length}`,
    );
  }
  if (source !== undefined && !SOURCES.includes(source as Source)) {
    throw new HubError('INVALID_INPUT', `source must be one of: ${SOURCES.join(', ')}`);
  }
  return { runs, source: source as Source | undefined };
}

/** A run without its own `source` takes the batch request's. */
export function withSource(item: unknown, source: Source | undefined): unknown {
  if (source === undefined || item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  return 'source' in item ? item : { ...item, source };
}
