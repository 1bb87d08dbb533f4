import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';

/** An HTTP answer as `app.inject` or fetch gives it. */
export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

type Json = Record<string, unknown>;
const pointer = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));

/**
 * Checks an answer against what the OpenAPI document declares for its operation: the status
 * must be documented, its media type too, and the body must validate against that schema
 * (JSON parsed, text as a string). Answers null when it conforms, else what is wrong.
 */
export function answerChecker(doc: Json) {
  const { ajv, paths, components } = compile(doc);
  return (method: string, path: string, res: Answer): string | null => {
    const op = paths[path]?.[method.toLowerCase()];
    if (!op) return `no operation ${method} ${path}`;
    const status = String(res.statusCode);
    let at = `#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${status}`;
    let response = op.responses[status];
    if (!response) return `${method} ${path} documents no ${status} (body ${res.body.slice(0, 200)})`;
    if (typeof response.$ref === 'string') {
      const name = response.$ref.split('/').pop()!;
      at = `#/components/responses/${pointer(name)}`;
      response = components.responses![name]!;
    }
    const content = response.content as Record<string, unknown> | undefined;
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    if (!content) return res.body === '' ? null : `${status} documents no body, got ${type}`;
    if (!content[type]) return `${status} documents ${Object.keys(content).join(', ')}, not ${type}`;
    const validate = ajv.getSchema(`openapi${at}/content/${pointer(type)}/schema`);
    if (!validate) return `no schema at ${at}`;
    const value = type.endsWith('json') ? JSON.parse(res.body) : res.body;
    if (validate(value)) return null;
    return `${method} ${path} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`;
  };
}

/** Checks a JSON request body against the one the document declares for `POST path`. */
export function bodyChecker(doc: Json) {
  const { ajv, paths } = compile(doc);
  return (path: string, body: unknown): string | null => {
    const ref = (paths[path]?.post?.requestBody as { $ref?: string } | undefined)?.$ref;
    if (!ref) return `POST ${path} documents no request body component`;
    const validate = ajv.getSchema(`openapi${ref}/content/${pointer('application/json')}/schema`);
    if (!validate) return `no schema at ${ref}`;
    return validate(body) ? null : `POST ${path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`;
  };
}

function compile(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (ajvFormats.default as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi' });
  const paths = doc.paths as Record<
    string,
    Record<string, { responses: Record<string, Json>; requestBody?: Json }>
  >;
  const components = doc.components as Record<string, Record<string, Json>>;
  return { ajv, paths, components };
}
