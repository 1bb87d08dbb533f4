import fp from 'fastify-plugin';
import { HubError } from '../errors.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../http/json-depth.js';

/**
 * fastify's own JSON parser behind the depth bound (docs/api.md, "Limits and their
 * semantics"): the text is scanned first and a body nested deeper than MAX_JSON_DEPTH is
 * refused INVALID_INPUT before JSON.parse builds it; a 4 MB `[[[…]]]` used to hold the API
 * thread for half a second in the parse and the walk after it (docs/benchmarks.md, "The
 * JSON depth scan"). What passes the scan parses into a value no deeper than the bound, so
 * every value a route reads from a body is bounded with no walk after the parse.
 *
 * `__proto__` and `constructor` keys are kept as what JSON.parse makes of them, plain own
 * data properties, instead of refusing the body as "not valid JSON": a validator or a
 * converter must see exactly the JSON it was sent. Nothing in the hub merges request
 * objects by assignment (the fuzz test checks no prototype is polluted); as top-level
 * fields they are refused as unknown.
 */
export default fp(
  async (app) => {
    const parse = app.getDefaultJsonParser('ignore', 'ignore');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
        return done(
          new HubError('INVALID_INPUT', `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`),
          undefined,
        );
      }
      parse(request, body as string, done);
    });
  },
  { name: 'toolhub-json-body' },
);
