/**
 * Guards around the `yaml` package for hostile input, shared by format-detective and
 * structured-diff (`tools/_shared/` holds code for several tools; the registry skips it).
 *
 * Nesting guard run before the `yaml` parser composes a document: composition recurses once
 * per level, and near the stack limit V8 can abort the whole thread (a regexp compiled with no
 * stack left reports "out of memory"), so depth is measured first, without recursion, on the
 * library's own lexer tokens (which already know quoted and block scalars). Hand-written because
 * `yaml` has no depth option. The count is an upper bound: block indentation levels (kept as a
 * stack, like Python's tokenizer), compact `- `/`? ` indicators at a line start, and flow brackets.
 */
import { CST, type Document, isScalar, Lexer, visit } from 'yaml';

const LEADING_INDICATORS = new Set(['seq-item-ind', 'explicit-key-ind', 'map-value-ind']);
const IGNORED = new Set([
  'comment',
  'comma',
  'byte-order-mark',
  'doc-mode',
  'directive-line',
  'flow-error-end',
]);

/**
 * A quick bound that skips the lexer pass for ordinary documents: depth never exceeds
 * (deepest indentation + 1) + (every bracket in the text) + (longest run of leading indicators).
 */
function quickBound(text: string): number {
  let brackets = 0;
  let maxLead = 0;
  let lead = 0;
  let inLead = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      inLead = true;
      lead = 0;
      continue;
    }
    if (code === 91 || code === 123) brackets += 1;
    // Spaces and `-`, `?`, `:` at a line start: indentation and compact indicators.
    if (inLead && (code === 32 || code === 9 || code === 13 || code === 45 || code === 63 || code === 58)) {
      lead += 1;
      if (lead > maxLead) maxLead = lead;
    } else {
      inLead = false;
    }
  }
  return brackets + maxLead + 1;
}

export function yamlDepthExceeds(text: string, limit: number): boolean {
  if (quickBound(text) <= limit) return false;
  const indents: number[] = [];
  let flow = 0;
  let lineStart = true;
  let leading = true;
  let indent = 0;
  let compact = 0;
  let skipScalarSource = false;
  for (const token of new Lexer().lex(text)) {
    if (skipScalarSource) {
      skipScalarSource = false;
      continue;
    }
    const type = token === CST.SCALAR ? 'scalar' : CST.tokenType(token);
    if (type === 'newline') {
      lineStart = true;
      leading = true;
      indent = 0;
      compact = 0;
      continue;
    }
    if (type === 'space') {
      if (lineStart) indent = token.length;
      continue;
    }
    if (type === null || IGNORED.has(type)) continue;
    if (type === 'doc-start' || type === 'doc-end') {
      indents.length = 0;
      continue;
    }
    if (lineStart && flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
    }
    lineStart = false;
    if (leading && LEADING_INDICATORS.has(type)) compact += 1;
    else leading = false;
    if (type === 'scalar') skipScalarSource = true;
    if (type === 'flow-seq-start' || type === 'flow-map-start') flow += 1;
    if ((type === 'flow-seq-end' || type === 'flow-map-end') && flow > 0) flow -= 1;
    if (indents.length + compact + flow > limit) return true;
  }
  return false;
}

/**
 * The first key that appears twice in one mapping, or null. Replaces yaml's `uniqueKeys` check,
 * which compares every pair of keys (minutes for 50,000 keys). Keys are compared as the strings
 * they become in JSON, so `1` and `"1"` also count as a duplicate: they would collide there.
 */
export function findDuplicateKey(doc: Document): string | null {
  let found: string | null = null;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (seen.has(key)) {
          found = key;
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return found;
}
