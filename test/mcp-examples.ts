import { readExamples } from '../src/docs/examples.js';
import { modeArgument } from '../src/mcp/tools.js';
import type { ToolSpec } from '../src/shared/tool-def.js';
import { fieldsFor } from '../src/shared/tool-def.js';

/**
 * A tool's basic example (tools/<id>/examples/basic.json, generic `a`/`b`/`c`/`mode`) as the
 * arguments of an MCP tools/call: its named fields plus the mode argument. Used by
 * test/mcp-clients.test.ts and scripts/mcp-inspector-check.ts.
 */
export function basicArguments(
  def: ToolSpec,
  docsDir: string,
): { mode: string; args: Record<string, unknown> } {
  const { basic } = readExamples(docsDir);
  const generic = (basic.input ?? basic) as Record<string, string | undefined>;
  const mode = generic.mode || def.modes[0]!;
  const fields = fieldsFor(def, mode);
  const args: Record<string, unknown> = { [modeArgument(def)]: mode };
  for (const slot of ['a', 'b', 'c'] as const) {
    const name = fields[slot];
    if (name && generic[slot] !== undefined) args[name] = generic[slot];
  }
  return { mode, args };
}
