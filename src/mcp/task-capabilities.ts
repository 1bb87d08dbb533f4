/** The 2026-07-28 tasks extension's id (docs/api.md, "MCP tasks"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The capabilities the server declares when tasks are on (the hub has its Redis): the
 * 2025-11-25 `tasks` capability and the 2026-07-28 extension; the SDK sends each era its own.
 */
export const TASK_CAPABILITIES = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION]: {} },
};
