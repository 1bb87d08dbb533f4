import type { Catalogue } from '../catalogue/catalogue.js';

/** One MCP resource: its listing and its text. */
export interface McpResource {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  text: string;
}

/**
 * The caller's own usage of the limits (docs/api.md, "Usage"): the answer of GET /api/usage,
 * read when asked (not listed with a text: it is the caller's and changes with every run).
 */
export const USAGE_RESOURCE = {
  uri: 'toolhub://usage',
  name: 'usage',
  title: 'Your usage of every tool’s limits',
  mimeType: 'application/json',
} as const;

/** One MCP resource template (RFC 6570 level 1): how to name a resource without listing it. */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

/**
 * The resource URIs as templates (`resources/templates/list`): a client that knows a
 * toolId can read its guide or an example without the whole listing.
 */
export const MCP_RESOURCE_TEMPLATES: readonly McpResourceTemplate[] = [
  {
    uriTemplate: 'toolhub://skills/{toolId}/SKILL.md',
    name: 'tool-guide',
    title: "A tool's agent guide",
    description: 'The SKILL.md of the tool named toolId (as listed by tools/list): inputs, limits, errors',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'toolhub://skills/common/{name}',
    name: 'common-guide',
    title: 'A common guide',
    description: 'A guide shared by every tool, e.g. error-handling.md',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'toolhub://examples/{toolId}/{example}.json',
    name: 'tool-example',
    title: "A tool's example",
    description: 'A named example request of the tool and its answer, e.g. basic',
    mimeType: 'application/json',
  },
];

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
