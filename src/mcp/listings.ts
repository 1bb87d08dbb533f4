import { type McpResource, type McpResourceTemplate, USAGE_RESOURCE } from './resources.js';
import type { McpTool } from './tools.js';

/** The three listing results, as objects (for the SDK's handlers) and as JSON text. */
export interface McpListings {
  tools: { tools: McpTool[] };
  resources: { resources: Omit<McpResource, 'text'>[] };
  templates: { resourceTemplates: McpResourceTemplate[] };
  /** The same results serialised once: repeated listings cost a string copy, not a build. */
  json: { 'tools/list': string; 'resources/list': string; 'resources/templates/list': string };
}

/**
 * Listings change only with the registry, which is fixed once the hub has booted, so they
 * are built once (docs/api.md, "MCP for agents": a message array of listings costs its bytes, not a
 * rebuild each).
 */
export function mcpListings(
  tools: McpTool[],
  resources: Map<string, McpResource>,
  templates: readonly McpResourceTemplate[],
): McpListings {
  const toolList = { tools };
  const resourceList = {
    resources: [...[...resources.values()].map(({ text: _text, ...listing }) => listing), USAGE_RESOURCE],
  };
  const templateList = { resourceTemplates: [...templates] };
  return {
    tools: toolList,
    resources: resourceList,
    templates: templateList,
    json: {
      'tools/list': JSON.stringify(toolList),
      'resources/list': JSON.stringify(resourceList),
      'resources/templates/list': JSON.stringify(templateList),
    },
  };
}
