import fp from 'fastify-plugin';
import { HubError } from '../errors.js';

/**
 * JSON values nested deeper than this are refused at the edge. JSON.parse reads any
 * depth, but serialising such a value again (input sizing, the copy to a worker) runs
 * out of stack at a few thousand levels; every tool's own limit is far below this.
 */
export const MAX_BODY_DEPTH = 1000;

/** True when `value` nests more than `levels` arrays or objects deep (stops at the bound). */
export function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const key in value) {
    if (nestsDeeper((value as Record<string, unknown>)[key], levels - 1)) return true;
  }
  return false;
}

/**
 * fastify's own JSON parser plus the depth bound. `__proto__` and `constructor` keys are
 * kept as what JSON.parse makes of them, plain own data properties, instead of refusing
 * the body as "not valid JSON": a validator or a converter must see exactly the JSON it
 * was sent. Nothing in the hub merges request objects by assignment (the fuzz test
 * checks no prototype is polluted); as top-level fields they are refused as unknown.
 */
export default fp(
  async (app) => {
    const parse = app.getDefaultJsonParser('ignore', 'ignore');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      parse(request, body as string, (err: Error | null, value?: unknown) => {
        if (err) return done(err, undefined);
        if (nestsDeeper(value, MAX_BODY_DEPTH)) {
          return done(
            new HubError('INVALID_INPUT', `the JSON body nests deeper than ${MAX_BODY_DEPTH} levels`),
            undefined,
          );
        }
        done(null, value);
      });
    });
  },
  { name: 'toolhub-json-body' },
);
