/**
 * Mode `schema`: checks the schema document itself, as a draft-07 JSON Schema or as an
 * LLM tool definition (name, description, parameters schema). Paths point into the document.
 */

import { lintAnthropicStrict } from './anthropic-strict-lint.js';
import { lintGeminiSchema } from './gemini-schema-lint.js';
import { IssueCollector } from './issue-list.js';
import { isPlainObject } from './json-input.js';
import { lintOpenAiStrict } from './openai-strict-lint.js';
import { ANTHROPIC_NAME, GEMINI_NAME, MCP_NAME, type Provider } from './provider-rules.js';
import {
  compileSchemaDocument,
  type Dialect,
  declaredDialect,
  type Issue,
  MAX_ERRORS,
  prefixIssues,
} from './schema-compile.js';
import { detectSchemaKind, type SchemaKind, type SchemaTarget } from './schema-kind.js';
import { lintObjectRoot } from './tool-input-lint.js';

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface SchemaCheck {
  valid: boolean;
  kind: SchemaKind;
  /** Tool name when the document is a tool definition. */
  name?: string;
  errors: Issue[];
  errorCount: number;
  truncated: boolean;
  provider?: Provider;
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

const NAME_RULES: Record<Provider | 'default', { re: RegExp; says: string }> = {
  default: { re: TOOL_NAME, says: 'letters, digits, _ and -, at most 64' },
  'openai-strict': { re: TOOL_NAME, says: 'letters, digits, _ and -, at most 64' },
  anthropic: { re: ANTHROPIC_NAME, says: 'letters, digits, _ and -, at most 64' },
  gemini: { re: GEMINI_NAME, says: 'a letter or _ first, then letters, digits, _ . : and -, at most 64' },
  mcp: { re: MCP_NAME, says: 'SHOULD be letters, digits, _ - and ., at most 128' },
};

/** Checks of the tool wrapper: name, description, and the parameters schema being an object schema. */
function toolIssues(t: SchemaTarget, provider?: Provider): Issue[] {
  const issues: Issue[] = [];
  const namePath = t.namePath ?? '/name';
  const rule = NAME_RULES[provider ?? 'default'];
  if (t.name === undefined) issues.push(missing(namePath));
  else if (typeof t.name !== 'string') {
    issues.push({ path: namePath, keyword: 'type', message: 'must be string', params: { type: 'string' } });
  } else if (!rule.re.test(t.name)) {
    issues.push({
      path: namePath,
      keyword: 'pattern',
      message: `tool name must match "${rule.re.source}" (${rule.says})`,
      params: { pattern: rule.re.source },
    });
  }
  if (t.description !== undefined && typeof t.description !== 'string') {
    const path = t.descriptionPath ?? '/description';
    issues.push({ path, keyword: 'type', message: 'must be string', params: { type: 'string' } });
  }
  // A response format may be any schema (strict mode's root rule is the provider lint's);
  // Gemini's OpenAPI `parameters` say OBJECT, which the Gemini lint checks.
  const anySchema =
    t.kind === 'openai-response-format' || (provider === 'gemini' && t.schemaPath.endsWith('/parameters'));
  if (t.schema === undefined) {
    if (t.schemaRequired) issues.push(missing(t.schemaPath));
  } else if (anySchema) {
    // checked elsewhere
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

/** `compile: false` (mode fix, on its own output) skips the JSON Schema check, already done on the input. */
export function checkSchema(doc: unknown, provider?: Provider, compile = true): SchemaCheck {
  if (provider) return checkForProvider(doc, provider, compile);
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

/** Compiles `schema` (at `path` in the document) in its declared dialect, or `fallback`. */
function compileAt(schema: unknown, path: string, fallback: Dialect, out: IssueCollector): void {
  out.addAll(prefixIssues(compileSchemaDocument(schema, declaredDialect(schema) ?? fallback), path));
}

/** The schema check plus the provider's own rules (the *-lint.ts modules). */
function checkForProvider(doc: unknown, provider: Provider, compile: boolean): SchemaCheck {
  const target = detectSchemaKind(doc);
  const isTool = target.kind !== 'json-schema';
  const out = new IssueCollector(provider);
  if (isTool) {
    const wrapper = toolIssues(target, provider);
    out.addAll({ issues: wrapper, count: wrapper.length });
  }
  const schema = target.schema;
  const at = target.schemaPath;
  const holder = target.holder ?? {};
  const hp = target.holderPath ?? '';
  // A tool's non-object parameters were reported by toolIssues; a bare schema is always checked.
  const present = isTool ? isPlainObject(schema) : true;
  switch (provider) {
    case 'openai-strict':
      if (present) {
        if (compile) compileAt(schema, at, 'draft-07', out);
        lintOpenAiStrict(schema, at, out);
      }
      if (
        (target.kind === 'openai-function' || target.kind === 'openai-response-format') &&
        holder.strict !== true
      ) {
        out.add(
          `${hp}/strict`,
          'strict',
          'strict is not true: OpenAI will not enforce the schema (set strict: true)',
        );
      }
      break;
    case 'anthropic':
      if (present) compileAt(schema, at, 'draft-07', out);
      if (!isTool) lintObjectRoot(schema, at, out, 'input_schema');
      if ('strict' in holder && typeof holder.strict !== 'boolean') {
        out.add(`${hp}/strict`, 'type', 'strict must be a boolean');
      }
      if (holder.strict === true && present) lintAnthropicStrict(schema, at, out);
      break;
    case 'gemini':
      if ('parameters' in holder && 'parametersJsonSchema' in holder) {
        out.add(
          `${hp}/parametersJsonSchema`,
          'parametersJsonSchema',
          'parameters and parametersJsonSchema are mutually exclusive',
        );
      }
      if (at.endsWith('/parametersJsonSchema')) {
        if (present) compileAt(schema, at, 'draft-07', out);
      } else if (schema !== undefined) lintGeminiSchema(schema, at, out);
      break;
    case 'mcp':
      if (present) compileAt(schema, at, '2020-12', out);
      if (!isTool) lintObjectRoot(schema, at, out, 'inputSchema');
      if (target.kind === 'mcp-tool' && 'outputSchema' in holder) {
        const output = holder.outputSchema;
        lintObjectRoot(output, `${hp}/outputSchema`, out, 'outputSchema');
        if (isPlainObject(output)) compileAt(output, `${hp}/outputSchema`, '2020-12', out);
      }
      break;
  }
  return {
    valid: out.count === 0,
    kind: target.kind,
    ...(isTool && typeof target.name === 'string' ? { name: target.name } : {}),
    errors: out.issues,
    errorCount: out.count,
    truncated: out.count > out.issues.length,
    provider,
  };
}
