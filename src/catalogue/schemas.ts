import { ERROR_CODES } from '../errors.js';
import { USAGE_SCHEMA } from '../limits/usage.js';
import { SOURCES, SURFACES } from '../run-meta.js';
import { ERROR_REASONS } from '../shared/envelope.js';
import { CATEGORIES, FAQ_SCHEMA, HOW_TO_SCHEMA, RISK_CLASSES } from '../shared/tool-def-schema.js';

/** JSON Schemas of the hub's answers (docs/api.md), used by fastify, the OpenAPI document and its tests. */
const str = { type: 'string' } as const;
const strArray = { type: 'array', items: str } as const;
const freeForm = { type: 'object', additionalProperties: true } as const;

export const RESPONSE_SCHEMAS = {
  ToolRunSuccess: {
    type: 'object',
    required: ['ok', 'result'],
    properties: {
      ok: { const: true },
      result: { ...freeForm, description: 'Tool-specific result (see each tool)' },
      runtime: { $ref: '#/components/schemas/Runtime' },
    },
  },
  PipelineRunSuccess: {
    type: 'object',
    description:
      "A pipeline's success (docs/api.md, \"Pipelines\"): the last step's result, each step's run in runtime.pipeline, the runs it spent in rateLimit.runs",
    required: ['ok', 'result', 'runtime', 'rateLimit'],
    properties: {
      ok: { const: true },
      result: { ...freeForm, description: "The last step's result" },
      runtime: { $ref: '#/components/schemas/Runtime' },
      rateLimit: { $ref: '#/components/schemas/RateLimit' },
    },
  },
  ToolRunError: {
    type: 'object',
    required: ['ok', 'error', 'errorCode'],
    properties: {
      ok: { const: false },
      error: { ...str, description: 'A message for humans; 5xx messages carry no internal detail' },
      errorCode: { enum: ERROR_CODES },
      reason: {
        enum: [...ERROR_REASONS],
        description:
          'Why, where errorCode alone does not say: memory (past the memory cap of the tool), resultSize (a result over RESULT_MAX_BYTES), network (the tool reached for the network it is not allowed)',
      },
      rateLimit: { $ref: '#/components/schemas/RateLimit' },
      runtime: { $ref: '#/components/schemas/Runtime' },
    },
  },
  Runtime: {
    type: 'object',
    required: ['toolId', 'requestId', 'durationMs', 'queuedMs', 'timeoutMs', 'source'],
    additionalProperties: true,
    properties: {
      toolId: str,
      requestId: str,
      surface: {
        enum: [...SURFACES],
        description:
          'Where the run came in: `runtime` the generic runtime endpoint, `dedicated` a dedicated endpoint, `batch` an item of a batch, `job` a job (POST /api/jobs/), `mcp` a tools/call (a task too), `pipeline` a step of an ad hoc pipeline (POST /api/pipelines/run)',
      },
      source: { enum: [...SOURCES] },
      mode: str,
      durationMs: { type: 'number', description: 'Execution time in the worker' },
      queuedMs: { type: 'number', description: 'Wait for a worker' },
      timeoutMs: { type: 'integer' },
      cached: { type: 'boolean' },
      pipeline: {
        type: 'object',
        description:
          'A pipeline\'s answer (docs/api.md, "Pipelines"): the runs it spent, its wall time, each step\'s run; on a failure the failing step and the results of the steps before it',
        required: ['runs', 'wallMs', 'steps'],
        properties: {
          runs: { type: 'integer', minimum: 0 },
          wallMs: { type: 'number' },
          failedStep: {
            type: 'object',
            required: ['index', 'toolId'],
            properties: { index: { type: 'integer', minimum: 0 }, toolId: str },
          },
          steps: {
            type: 'array',
            items: {
              type: 'object',
              required: ['toolId', 'durationMs', 'queuedMs'],
              properties: {
                toolId: str,
                mode: str,
                durationMs: { type: 'number' },
                queuedMs: { type: 'number' },
                cached: { type: 'boolean' },
                result: { description: "On a failure: this earlier step's result" },
                errorCode: { enum: ERROR_CODES },
              },
            },
          },
        },
      },
    },
  },
  RateLimit: {
    type: 'object',
    required: ['limit', 'burst', 'windowSec', 'remaining', 'resetMs', 'retryAfterSec'],
    properties: {
      limit: { type: 'integer' },
      burst: { type: 'integer' },
      windowSec: { type: 'integer' },
      remaining: {
        type: 'integer',
        description:
          "Attempts left in the tool's rate limit window, burst included (every attempt counts, refused ones too)",
      },
      resetMs: { type: 'integer' },
      retryAfterSec: {
        type: 'integer',
        minimum: 0,
        description:
          'Seconds to wait before this run could be allowed (as Retry-After); 0 when waiting would not help (docs/api.md, "Answers")',
      },
      scope: {
        enum: ['rate', 'budget', 'concurrency', 'quota'],
        description:
          'On a refusal by the limiter, which limit refused: the rate limit, the compute budget, a cap on runs in flight, or a quota per UTC day or month (docs/api.md, "Quotas")',
      },
      limitName: {
        type: 'string',
        description:
          'On a refusal by the limiter, the name of the limit that refused, as the RateLimit and RateLimit-Policy headers name it: `<toolId>`, `<toolId>/budget`, `<toolId>/cap`, `<toolId>/instance-cap`, `<toolId>/<day|month>/<runs|computeMs>` or `@key/<day|month>/<runs|computeMs>` (docs/api.md, "Limit names and the RateLimit headers")',
      },
      runs: {
        type: 'integer',
        minimum: 0,
        description:
          "A pipeline's answer: the runs it spent, one a step started, each counted under its own tool's limits; the other fields are those of the step with the fewest left",
      },
      quota: {
        type: 'object',
        description:
          'On a quota refusal: the quota used up, or (CONCURRENCY_LIMIT) one of worker ms that runs in flight fill; `resetAt` is when its window ends',
        required: ['per', 'window', 'kind', 'limit', 'used', 'resetAt'],
        properties: {
          per: { enum: ['tool', 'key'] },
          window: { enum: ['day', 'month'] },
          kind: { enum: ['runs', 'computeMs'] },
          limit: { type: 'integer' },
          used: { type: 'integer' },
          reservedMs: {
            type: 'integer',
            description:
              'A quota of worker ms that runs in flight fill (CONCURRENCY_LIMIT): the ms they reserve until they end',
          },
          resetAt: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
  SkillsIndex: {
    type: 'object',
    required: ['generatedAt', 'version', 'toolCount', 'commonFiles', 'tools'],
    properties: {
      generatedAt: { type: 'string', format: 'date-time' },
      version: str,
      toolCount: { type: 'integer' },
      commonFiles: strArray,
      entryPoints: {
        type: 'object',
        description: 'Where agents call the tools: the generic runtime, batch requests and the MCP endpoint',
        properties: { runtime: str, batch: str, mcp: str, pages: str },
      },
      tools: { type: 'array', items: { $ref: '#/components/schemas/SkillsIndexTool' } },
    },
  },
  SkillsIndexTool: {
    type: 'object',
    required: ['toolId', 'modeLabel', 'remoteMode', 'remoteCallable', 'riskClass'],
    properties: {
      toolId: str,
      modeLabel: str,
      remoteMode: str,
      remoteCallable: { type: 'boolean' },
      riskClass: str,
    },
  },
  SkillsBundle: {
    type: 'object',
    required: ['generatedAt', 'version', 'toolCount', 'common', 'tools'],
    properties: {
      generatedAt: { type: 'string', format: 'date-time' },
      version: str,
      toolCount: { type: 'integer' },
      common: {
        type: 'object',
        required: ['errorHandling', 'invocationPatterns', 'safetyDefaults'],
        properties: { errorHandling: str, invocationPatterns: str, safetyDefaults: str },
      },
      tools: {
        type: 'array',
        items: {
          type: 'object',
          required: ['toolId', 'modeLabel', 'remoteMode', 'riskClass', 'remoteCallable', 'files'],
          properties: {
            toolId: str,
            modeLabel: str,
            remoteMode: str,
            riskClass: str,
            remoteCallable: { type: 'boolean' },
            files: {
              type: 'object',
              required: ['skillMd', 'examples'],
              properties: {
                skillMd: str,
                examples: {
                  type: 'object',
                  required: ['basic', 'edgeCase', 'expectedOutput'],
                  properties: { basic: freeForm, edgeCase: freeForm, expectedOutput: freeForm },
                },
              },
            },
          },
        },
      },
    },
  },
  ToolDescriptor: {
    type: 'object',
    required: ['generatedAt', 'tool'],
    properties: {
      generatedAt: { type: 'string', format: 'date-time' },
      tool: {
        type: 'object',
        required: [
          'id',
          'name',
          'description',
          'category',
          'icon',
          'keywords',
          'remoteCallable',
          'remoteMode',
          'riskClass',
          'maxInputBytes',
          'timeoutMs',
          'supportsStreaming',
          'url',
          'tags',
          'faqs',
          'howTo',
          'agentContract',
          'relatedTools',
        ],
        properties: {
          id: str,
          name: str,
          description: str,
          category: { enum: [...CATEGORIES] },
          icon: str,
          keywords: strArray,
          hasApi: { type: 'boolean' },
          remoteCallable: { type: 'boolean' },
          remoteMode: { enum: ['dedicated_api'] },
          riskClass: { enum: [...RISK_CLASSES] },
          maxInputBytes: { type: 'integer' },
          timeoutMs: { type: 'integer' },
          supportsStreaming: { type: 'boolean' },
          url: str,
          tags: strArray,
          faqs: { type: 'array', items: FAQ_SCHEMA },
          howTo: { type: 'array', items: HOW_TO_SCHEMA },
          agentContract: { $ref: '#/components/schemas/AgentContract' },
          relatedTools: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name', 'url', 'category'],
              properties: { id: str, name: str, url: str, category: str },
            },
          },
        },
      },
    },
  },
  AgentContract: {
    type: 'object',
    required: [
      'toolId',
      'contractVersion',
      'remote_callable',
      'remote_mode',
      'risk_class',
      'max_input_bytes',
      'timeout_ms',
      'supports_streaming',
      'preferred_surface',
      'dedicated_api',
      'runtime',
      'semantic_fields',
    ],
    properties: {
      toolId: str,
      contractVersion: str,
      remote_callable: { type: 'boolean' },
      remote_mode: str,
      risk_class: str,
      max_input_bytes: { type: 'integer' },
      timeout_ms: { type: 'integer' },
      supports_streaming: { type: 'boolean' },
      preferred_surface: str,
      dedicated_api: {
        type: 'object',
        required: ['baseUrl', 'openapiUrl', 'endpoints', 'riskClass', 'inputMaxBytes', 'timeoutMs'],
        properties: {
          baseUrl: str,
          openapiUrl: str,
          endpoints: {
            type: 'array',
            items: {
              type: 'object',
              required: ['method', 'path', 'summary'],
              properties: { method: str, path: str, summary: str },
            },
          },
          riskClass: str,
          inputMaxBytes: { type: 'integer' },
          timeoutMs: { type: 'integer' },
        },
      },
      runtime: {
        type: 'object',
        required: ['endpoint', 'methods', 'queryParams', 'postBodyShape', 'exampleGet', 'policy'],
        properties: {
          endpoint: str,
          methods: strArray,
          queryParams: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'required', 'description'],
              properties: { name: str, required: { type: 'boolean' }, description: str },
            },
          },
          postBodyShape: freeForm,
          exampleGet: str,
          policy: freeForm,
        },
      },
      semantic_fields: { type: 'object', additionalProperties: str },
    },
  },
  /** GET /api/usage (declared with the store's read, src/limits/usage.ts). */
  Usage: USAGE_SCHEMA,
  Health: {
    type: 'object',
    required: ['ok', 'status'],
    properties: { ok: { const: true }, status: { const: 'alive' } },
  },
  Readiness: {
    type: 'object',
    required: ['ok', 'status', 'pool', 'limiterStore'],
    properties: {
      ok: { type: 'boolean', description: 'false (with status 503) while not ready or shedding load' },
      status: { enum: ['ready', 'degraded', 'under-pressure', 'not-ready'] },
      pool: {
        type: 'object',
        required: [
          'threads',
          'slowThreads',
          'maxWorkers',
          'workers',
          'held',
          'queueSize',
          'inUse',
          'capacity',
        ],
        properties: {
          threads: { type: 'integer', description: 'Batches run at once on the main lane (POOL_THREADS)' },
          slowThreads: { type: 'integer', description: 'Runs of slow tools at once, on the slow lane' },
          maxWorkers: {
            type: 'integer',
            description: 'Most worker threads at once: both lanes, a warm spare each and their overflow',
          },
          workers: { type: 'integer', description: 'Worker threads alive now' },
          held: {
            type: 'integer',
            description: 'Runs held now (past 100 ms, at lower priority, off the active workers)',
          },
          queueSize: { type: 'integer', description: 'Runs waiting for a worker' },
          inUse: { type: 'integer', description: 'Runs queued or running' },
          capacity: { type: 'integer', description: 'POOL_THREADS + POOL_MAX_QUEUE' },
        },
      },
      processes: {
        type: 'object',
        description:
          'With HUB_PROCESSES > 1: the API processes of the box by state (they add up to total); the box is ready once every process has been (its boot), then while at least one is',
        required: ['total', 'ready', 'notReady', 'starting', 'down'],
        properties: {
          total: { type: 'integer', description: 'HUB_PROCESSES: the processes of the box' },
          ready: { type: 'integer', description: 'processes that said they are ready' },
          notReady: {
            type: 'integer',
            description:
              'processes listening but not ready (workers loading, shedding load) or silent for 1 s',
          },
          starting: { type: 'integer', description: 'processes started and not yet listening' },
          down: { type: 'integer', description: 'processes dead and waiting to be started again' },
        },
      },
      limiterStore: {
        enum: ['redis', 'memory', 'degraded'],
        description: 'degraded: Redis is away and each instance counts alone on its insurance limiter',
      },
      limiterRedis: {
        type: 'object',
        description:
          "With Redis for the limits: its eviction policy as last read (at boot, on every reconnect, every minute; on a Cluster, every master's)",
        required: ['maxmemoryPolicy', 'evictable'],
        properties: {
          maxmemoryPolicy: {
            type: ['string', 'null'],
            description: 'maxmemory-policy (distinct values, comma-separated); null until Redis has answered',
          },
          evictable: {
            type: ['boolean', 'null'],
            description:
              'true: the policy can evict limit keys (any but noeviction), so a client may get past its limits; null until read',
          },
        },
      },
      resultCache: {
        enum: ['shared', 'in-process', 'degraded'],
        description:
          "The result cache's shared layer: shared (results in Redis for every replica), in-process (none: CACHE_SHARED false, no Redis for it, or the limiter's Redis can evict or has not been read yet), degraded (its Redis is away: in-process until it answers)",
      },
    },
  },
} as const;
