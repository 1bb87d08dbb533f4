import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The `toolhub` block of a tool package's package.json (docs/tool-packages.md), declared once:
 * the registry checks every block with this schema (ajv) and the type is derived from it. The
 * hub's own package.json carries one too, naming the built-in tools.
 */
export const TOOL_PACKAGE_SCHEMA = {
  type: 'object',
  required: ['manifest', 'entry', 'tools', 'hub'],
  properties: {
    /** The manifest's format; 1 is the only one. */
    manifest: { const: 1 },
    /** A folder relative to the package, holding one folder per tool id (tool.js and run.js). */
    entry: { type: 'string', pattern: '^\\./' },
    /** The ids the package provides; no other folder of `entry` is loaded. */
    tools: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
    },
    /** A semver range the hub's version must satisfy. */
    hub: { type: 'string', minLength: 1 },
    /** What the package's tools need; recorded on each tool (enforcement comes later). */
    needs: {
      type: 'object',
      properties: {
        network: { type: 'boolean', default: false },
        memoryMb: { type: 'integer', minimum: 1 },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

export type ToolPackageManifest = FromSchema<typeof TOOL_PACKAGE_SCHEMA>;

/** What a tool needs to run, from its package's `toolhub.needs` (a folder's tools need nothing). */
export interface ToolNeeds {
  network: boolean;
  memoryMb?: number;
}
