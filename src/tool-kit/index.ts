/**
 * The tool kit: all a tool (`tools/<id>/`: its `tool.ts`, `run.ts`, helpers and tests) takes
 * from the hub, imported as `#tool-kit` (package.json `imports`; docs/architecture.md,
 * "Boundaries"). Tools import nothing else of the hub's code, so what a worker loads with a
 * tool is this and the tool's own modules.
 */

export { DEFAULT_MODE, DEFAULT_POLICY, expandTool } from '../shared/expand-tool.js';
export { quote } from '../shared/quote.js';
export {
  definePage,
  defineTool,
  type ToolDefinition,
  type ToolInput,
  type ToolPage,
  type ToolPrepare,
  type ToolRun,
  type ToolSpec,
} from '../shared/tool-def.js';
export {
  inputErrorOf,
  parseJsonField,
  type ToolErrorCode,
  ToolInputError,
  unsupported,
} from '../shared/tool-error.js';
