import type { Catalogue } from '../catalogue/catalogue.js';

/** One MCP resource: its listing and its text. */
export interface McpResource {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  text: string;
}

interface BundleTool {
  toolId: string;
  files: { examples: Record<string, unknown> };
}

/**
 * Every agent guide as an MCP resource, from the catalogue built at boot: each tool's
 * SKILL.md and the common guides (`text/markdown`), and each tool's examples (JSON). URIs
 * mirror the hub's own paths under the `toolhub:` scheme, e.g. `toolhub://skills/regex-tester/SKILL.md`
 * (served over HTTP at /skills/regex-tester/SKILL.md) and `toolhub://examples/regex-tester/basic.json`.
 */
export function mcpResources(catalogue: Catalogue): Map<string, McpResource> {
  const resources = new Map<string, McpResource>();
  for (const [path, doc] of catalogue.markdown) {
    const uri = `toolhub:/${path}`;
    const name = path.split('/').slice(2).join('/');
    resources.set(uri, {
      uri,
      name,
      title: name,
      mimeType: 'text/markdown',
      text: doc.body.toString('utf8'),
    });
  }
  const bundle = JSON.parse(catalogue.bundle.body.toString('utf8')) as { tools: BundleTool[] };
  for (const tool of bundle.tools) {
    for (const [example, value] of Object.entries(tool.files.examples)) {
      const uri = `toolhub://examples/${tool.toolId}/${example}.json`;
      resources.set(uri, {
        uri,
        name: `${tool.toolId}/${example}.json`,
        title: `${tool.toolId}: ${example} example`,
        mimeType: 'application/json',
        text: JSON.stringify(value, null, 2),
      });
    }
  }
  return resources;
}
