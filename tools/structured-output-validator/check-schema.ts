/**
 * Mode `schema`: checks the schema document itself, as a draft-07 JSON Schema or as an
 * LLM tool definition (name, description, parameters schema). Paths point into the document.
 */
import { isPlainObject } from './json-input.js';
import { compileSchemaDocument, type Issue, MAX_ERRORS, prefixIssues } from './schema-compile.js';
import { detectSchemaKind, type SchemaKind, type SchemaTarget } from './schema-kind.js';

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface SchemaCheck {
  valid: boolean;
  kind: SchemaKind;
  /** Tool name when the document is a tool definition. */
  name?: string;
  errors: Issue[];
  errorCount: number;
  truncated: boolean;
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const lastKey = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function missing(path: string): Issue {
  const key = lastKey(path);
  return {
    path: parentOf(path),
    keyword: 'required',
    message: `must have required property '${key}'`,
    params: { missingProperty: key },
  };
}

/** Checks of the tool wrapper: name, description, and the parameters schema being an object schema. */
function toolIssues(t: SchemaTarget): Issue[] {
  const issues: Issue[] = [];
  const namePath = t.namePath ?? '/name';
  if (t.name === undefined) issues.push(missing(namePath));
  else if (typeof t.name !== 'string') {
    issues.push({ path: namePath, keyword: 'type', message: 'must be string', params: { type: 'string' } });
  } else if (!TOOL_NAME.test(t.name)) {
    issues.push({
      path: namePath,
      keyword: 'pattern',
      message: `tool name must match "${TOOL_NAME.source}" (letters, digits, _ and -, at most 64)`,
      params: { pattern: TOOL_NAME.source },
    });
  }
  if (t.description !== undefined && typeof t.description !== 'string') {
    const path = t.descriptionPath ?? '/description';
    issues.push({ path, keyword: 'type', message: 'must be string', params: { type: 'string' } });
  }
  if (t.schema === undefined) {
    if (t.schemaRequired) issues.push(missing(t.schemaPath));
  } else if (!isPlainObject(t.schema) || t.schema.type !== 'object') {
    issues.push({
      path: isPlainObject(t.schema) ? `${t.schemaPath}/type` : t.schemaPath,
      keyword: 'type',
      message: "a tool's parameters must be a JSON Schema with type 'object'",
      params: { type: 'object' },
    });
  }
  return issues;
}

export function checkSchema(doc: unknown): SchemaCheck {
  const target = detectSchemaKind(doc);
  const isTool = target.kind !== 'json-schema';
  const issues = isTool ? toolIssues(target) : [];
  let count = issues.length;
  // A tool's non-object parameters were reported above; compiling them would repeat it.
  if (isTool ? isPlainObject(target.schema) : true) {
    const compiled = prefixIssues(compileSchemaDocument(target.schema), target.schemaPath);
    issues.push(...compiled.issues);
    count += compiled.count;
  }
  const errors = issues.slice(0, MAX_ERRORS);
  return {
    valid: count === 0,
    kind: target.kind,
    ...(isTool && typeof target.name === 'string' ? { name: target.name } : {}),
    errors,
    errorCount: count,
    truncated: count > errors.length,
  };
}
