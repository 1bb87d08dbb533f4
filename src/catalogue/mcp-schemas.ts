/**
 * The JSON-RPC 2.0 envelopes of `POST /mcp` (docs/api.md, "MCP for agents"), as components of
 * the OpenAPI document. They describe the wire, not the MCP methods: those are the Model
 * Context Protocol's own (tools/list, tools/call, resources/read…), described by its
 * specification, and tools/list gives each tool's input and output schemas.
 */
const id = {
  type: ['string', 'integer'],
  description: 'The request id; a notification has none',
} as const;
const anyObject = { type: 'object', additionalProperties: true } as const;

export const MCP_SCHEMAS = {
  JsonRpcMessage: {
    type: 'object',
    description:
      'A JSON-RPC 2.0 request (method and id), notification (method, no id) or response to a server request',
    required: ['jsonrpc'],
    additionalProperties: true,
    properties: {
      jsonrpc: { const: '2.0' },
      id,
      method: { type: 'string', description: 'initialize, server/discover, tools/list, tools/call, …' },
      params: { ...anyObject, description: "The method's parameters (see the MCP specification)" },
    },
  },
  JsonRpcRequestBody: {
    description: 'One message, or an array of them (JSON-RPC 2.0 batch; the 2025-03-26 revision)',
    oneOf: [
      { $ref: '#/components/schemas/JsonRpcMessage' },
      { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/JsonRpcMessage' } },
    ],
  },
  JsonRpcErrorObject: {
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: {
        type: 'integer',
        description: '-32700 parse, -32600 request, -32601 method, -32602 params, -32000 refused',
      },
      message: { type: 'string' },
      data: { description: "The hub's own error: the ToolRunError (errorCode, error, retryAfterSec)" },
    },
  },
  JsonRpcResponse: {
    type: 'object',
    description: 'A JSON-RPC 2.0 answer: `result` on success, `error` otherwise',
    required: ['jsonrpc', 'id'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: {
        type: ['string', 'integer', 'null'],
        description: 'The request id; null when it could not be read',
      },
      result: { ...anyObject, description: "The method's result (see the MCP specification)" },
      error: { $ref: '#/components/schemas/JsonRpcErrorObject' },
    },
  },
  JsonRpcAnswer: {
    description: 'One answer, or an array of them',
    oneOf: [
      { $ref: '#/components/schemas/JsonRpcResponse' },
      { type: 'array', items: { $ref: '#/components/schemas/JsonRpcResponse' } },
    ],
  },
  JsonRpcError: {
    type: 'object',
    description: 'A JSON-RPC 2.0 error answer, as MCP clients read it',
    required: ['jsonrpc', 'id', 'error'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      error: { $ref: '#/components/schemas/JsonRpcErrorObject' },
    },
  },
} as const;
