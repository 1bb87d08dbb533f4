/**
 * Checking and compiling one draft-07 schema with ajv, reporting every problem as an
 * issue with a JSON Pointer into the schema. Untrusted schemas never reach the network or
 * the filesystem: no `loadSchema` is set, so a $ref that is not inside the schema fails
 * with MissingRefError, which is reported instead of fetched.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { quote } from '#tool-kit';
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
  /** With a `provider` option: the provider whose rules the problem is reported under. */
  provider?: string;
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
export function newAjv(dialect: Dialect = 'draft-07'): Ajv {
  const ajv = new (dialect === '2020-12' ? Ajv2020 : Ajv)({
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

/** draft-07 (the tool's own dialect) or 2020-12 (MCP's default dialect, with a provider). */
export type Dialect = 'draft-07' | '2020-12';
export const DRAFT2020 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT2020_IDS = new Set([DRAFT2020, `${DRAFT2020}#`]);

/** The dialect a `$schema` declares, if it is one of the two supported. */
export function declaredDialect(doc: unknown): Dialect | undefined {
  if (!isPlainObject(doc) || typeof doc.$schema !== 'string') return undefined;
  if (DRAFT07_IDS.has(doc.$schema)) return 'draft-07';
  return DRAFT2020_IDS.has(doc.$schema) ? '2020-12' : undefined;
}

// Shared for meta-schema checks only: validating against the meta-schema keeps no per-call state.
const metaAjv: Partial<Record<Dialect, Ajv>> = {};
function getMetaAjv(dialect: Dialect): Ajv {
  metaAjv[dialect] ??= newAjv(dialect);
  return metaAjv[dialect];
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

/**
 * Meta-schema check, regex check, then compile; stops at the first stage that fails.
 * `dialect` 2020-12 (only with a provider) checks against the 2020-12 meta-schema with Ajv2020.
 */
export function compileSchemaDocument(doc: unknown, dialect: Dialect = 'draft-07'): CompileResult {
  if (typeof doc === 'boolean') return { issues: [], count: 0, validate: newAjv(dialect).compile(doc) };
  if (!isPlainObject(doc)) {
    const got = doc === null ? 'null' : Array.isArray(doc) ? 'an array' : `a ${typeof doc}`;
    return one({ path: '', keyword: 'type', message: `a schema must be an object or a boolean, got ${got}` });
  }
  const declared = doc.$schema;
  const ids = dialect === '2020-12' ? DRAFT2020_IDS : DRAFT07_IDS;
  if (typeof declared === 'string' && !ids.has(declared)) {
    const name = dialect === '2020-12' ? 'JSON Schema 2020-12' : 'JSON Schema draft-07';
    return one({
      path: '/$schema',
      keyword: '$schema',
      message: `only ${name} is supported here, but the schema declares ${quote(declared, 200)}`,
      params: { allowedValues: [dialect === '2020-12' ? DRAFT2020 : `${DRAFT07}#`] },
    });
  }
  const meta = getMetaAjv(dialect);
  // By key rather than ajv.validateSchema: the https spelling of the draft-07 id is accepted too.
  const metaOk = meta.validate(dialect === '2020-12' ? DRAFT2020 : DRAFT07, doc);
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
    return { issues: [], count: 0, validate: newAjv(dialect).compile(exposeProtoKeys(doc)) };
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
