/**
 * Checking and compiling one draft-07 schema with ajv, reporting every problem as an
 * issue with a JSON Pointer into the schema. Untrusted schemas never reach the network or
 * the filesystem: no `loadSchema` is set, so a $ref that is not inside the schema fails
 * with MissingRefError, which is reported instead of fetched.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isPlainObject } from './json-input.js';
import { exposeProtoKeys, useOwnDependencies } from './proto-keys.js';
import { findSchemaHazards } from './schema-hazards.js';
import { findBadPatterns, findRefPath } from './schema-walk.js';

export interface Issue {
  path: string;
  keyword: string;
  message: string;
  params?: Record<string, unknown>;
  schemaPath?: string;
}

export interface IssueList {
  issues: Issue[];
  /** Total found, which may exceed `issues.length` when capped. */
  count: number;
}

export const MAX_ERRORS = 100;
const DRAFT07 = 'http://json-schema.org/draft-07/schema';
const DRAFT07_IDS = new Set([
  DRAFT07,
  `${DRAFT07}#`,
  'https://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft-07/schema#',
]);

/**
 * A fresh instance per compiled schema: an `$id` inside a schema registers itself in its
 * ajv instance, so sharing one would leak schemas between requests and grow without bound.
 * unicodeRegExp stays at ajv's default (true). Schemas are meta-validated before compiling.
 * ownProperties: without it ajv reads inherited members, so `{}` fails a `toString` property
 * schema and passes `required: ["constructor"]`. A `__proto__` property is checked too (proto-keys.ts).
 */
export function newAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    logger: false,
    validateSchema: false,
    ownProperties: true,
  });
  addFormats.default(ajv);
  useOwnDependencies(ajv);
  return ajv;
}

// Shared for meta-schema checks only: validating against the meta-schema keeps no per-call state.
let metaAjv: Ajv | undefined;
function getMetaAjv(): Ajv {
  metaAjv ??= newAjv();
  return metaAjv;
}

export function mapAjvErrors(errors: ErrorObject[] | null | undefined, prefix = ''): IssueList {
  const list = errors ?? [];
  const issues = list.slice(0, MAX_ERRORS).map((e) => ({
    path: prefix + e.instancePath,
    keyword: e.keyword,
    message: e.message ?? `must pass "${e.keyword}"`,
    params: e.params as Record<string, unknown>,
    schemaPath: e.schemaPath,
  }));
  return { issues, count: list.length };
}

export function prefixIssues(list: IssueList, prefix: string): IssueList {
  if (prefix === '') return list;
  return { issues: list.issues.map((i) => ({ ...i, path: prefix + i.path })), count: list.count };
}

export interface CompileResult extends IssueList {
  validate?: ValidateFunction;
}

const one = (issue: Issue): CompileResult => ({ issues: [issue], count: 1 });

/** Meta-schema check, regex check, then compile; stops at the first stage that fails. */
export function compileSchemaDocument(doc: unknown): CompileResult {
  if (typeof doc === 'boolean') return { issues: [], count: 0, validate: newAjv().compile(doc) };
  if (!isPlainObject(doc)) {
    const got = doc === null ? 'null' : Array.isArray(doc) ? 'an array' : `a ${typeof doc}`;
    return one({ path: '', keyword: 'type', message: `a schema must be an object or a boolean, got ${got}` });
  }
  const declared = doc.$schema;
  if (typeof declared === 'string' && !DRAFT07_IDS.has(declared)) {
    return one({
      path: '/$schema',
      keyword: '$schema',
      message: `only JSON Schema draft-07 is supported, but the schema declares '${declared}'`,
      params: { allowedValues: [`${DRAFT07}#`] },
    });
  }
  const meta = getMetaAjv();
  // By key rather than ajv.validateSchema: the https spelling of the draft-07 id is accepted too.
  const metaOk = meta.validate(DRAFT07, doc);
  const metaIssues = metaOk ? { issues: [], count: 0 } : mapAjvErrors(meta.errors);
  // The meta-schema does not check regexes (ajv meta-validates without formats): we do, for all at once.
  const bad = findBadPatterns(doc, MAX_ERRORS).map((b) => ({
    path: b.path,
    keyword: 'pattern',
    message: `invalid regular expression (compiled with the u flag): ${b.message}`,
  }));
  if (!metaOk || bad.length > 0) {
    const issues = [...metaIssues.issues, ...bad].slice(0, MAX_ERRORS);
    return { issues, count: metaIssues.count + bad.length };
  }
  const hazards = findSchemaHazards(doc);
  if (hazards.length > 0) return { issues: hazards, count: hazards.length };
  try {
    return { issues: [], count: 0, validate: newAjv().compile(exposeProtoKeys(doc)) };
  } catch (err) {
    if (err instanceof Ajv.MissingRefError) {
      const ref = err.missingRef;
      return one({
        path: findRefPath(doc, ref),
        keyword: '$ref',
        message: `$ref '${ref}' cannot be resolved: only references inside the schema (#/..., or an $id it defines) are supported; remote schemas are never fetched`,
        params: { ref },
      });
    }
    return one({
      path: '',
      keyword: 'compile',
      message: `the schema cannot be compiled: ${(err as Error).message}`,
    });
  }
}
