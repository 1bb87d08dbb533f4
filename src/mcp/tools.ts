import type { Tool } from '@modelcontextprotocol/server';
import type { RegisteredTool } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def.js';

/** What `tools/list` says of one tool, derived from its definition. */
export type McpTool = Tool;

/** The argument that carries the mode: the tool's mode field, or `mode` for tools whose path implies it. */
export function modeArgument(def: ToolSpec): string {
  return def.modeField ?? 'mode';
}

/**
 * One MCP tool per hub tool, named by its toolId. Its arguments are the dedicated
 * endpoint's named fields, plus the mode as an argument (two-path tools such as
 * format-detective take `mode: "detect" | "convert"` instead of becoming two tools), so an
 * agent sees one schema and one name per tool.
 */
export function mcpTools(tools: Map<string, RegisteredTool>, tasks = false): McpTool[] {
  return [...tools.values()]
    .map(({ def }) => def)
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((def) => ({
      name: def.id,
      title: def.name,
      description: def.description,
      inputSchema: inputSchemaOf(def),
      ...(def.output ? { outputSchema: def.output as Tool['outputSchema'] } : {}),
      annotations: {
        title: def.name,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      // Every run may be a task when the hub has its Redis (docs/api.md, "MCP tasks").
      ...(tasks ? { execution: { taskSupport: 'optional' as const } } : {}),
    }));
}

function inputSchemaOf(def: ToolSpec): Tool['inputSchema'] {
  const { $schema: _ignored, ...input } = def.input;
  const properties = { ...((input.properties as Record<string, unknown>) ?? {}) };
  properties[modeArgument(def)] = {
    type: 'string',
    enum: def.modes,
    default: def.modes[0],
    description: `What to do: ${def.modes.join(', ')} (default ${def.modes[0]})`,
  };
  return { ...input, type: 'object', properties } as Tool['inputSchema'];
}
