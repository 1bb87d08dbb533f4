// The import rules of the hub (docs/architecture.md, "Boundaries"), checked by
// `npm run check:imports` in CI: what a tool, the worker and each layer of src/ may import.

/**
 * The layers of src/, lowest first. A module imports its own layer and the layers below it,
 * never one above; the order is what the code needs:
 *   shared   leaves: the code the API thread shares with the workers, the tool kit and the
 *            worker protocol (the names `#tool-kit` and `#worker-protocol` point there), paths
 *   base     the error table, the run's answer block, settings, API keys and tiers, the
 *            registry of tools, the HTTP edge's helpers (callerOf, sendError), an API
 *            process's link to the primary of HUB_PROCESSES, the traces (src/telemetry/)
 *   engine   the limits, the pool, the result cache, the metrics and the run facade over them,
 *            the jobs (queue, webhooks) and the Idempotency-Key store over the facade, the
 *            pipelines (their check, the named ones served as tools)
 *   content  what is derived from the tools and the facade: the generated docs, the
 *            catalogue (with the route declarations the OpenAPI document describes), the
 *            tool pages, MCP
 *   routes   the HTTP routes (they register the declarations of the catalogue)
 *   plugins  the fastify plugins (they mount the routes, the catalogue, MCP, the pages)
 *   app      buildApp and its wiring (the plugins and routes in order), the server and the
 *            primary of HUB_PROCESSES (with its questions to the processes and its handoffs
 *            of connections)
 */
const LAYERS = [
  ['shared', ['src/shared/', 'src/tool-kit/', 'src/worker-protocol/', 'src/paths.ts']],
  [
    'base',
    [
      'src/ajv.ts',
      'src/errors.ts',
      'src/run-meta.ts',
      'src/config/',
      'src/auth/',
      'src/registry.ts',
      'src/tool-package-schema.ts',
      'src/http/',
      'src/cluster/link.ts',
      'src/cluster/messages.ts',
      'src/cluster/sizing.ts',
      'src/telemetry/',
    ],
  ],
  [
    'engine',
    [
      'src/limits/',
      'src/pool/',
      'src/cache/',
      'src/fast-metrics.ts',
      'src/metrics.ts',
      'src/metrics-text.ts',
      'src/quota-metrics.ts',
      'src/run/',
      'src/jobs/',
      'src/idempotency/',
      'src/pipelines/',
    ],
  ],
  ['content', ['src/docs/', 'src/catalogue/', 'src/pages/', 'src/mcp/']],
  ['routes', ['src/routes/']],
  ['plugins', ['src/plugins/']],
  [
    'app',
    [
      'src/app.ts',
      'src/wiring.ts',
      'src/server.ts',
      'src/cluster/primary.ts',
      'src/cluster/gather.ts',
      'src/cluster/handoff.ts',
    ],
  ],
];

/** Tests drive their module from above: they are outside the layers. */
const TESTS = '\\.test\\.ts$|/test-helpers\\.ts$';
/** A regular expression for files and folders: a folder matches what it holds. */
const paths = (list) =>
  `^(${list.map((p) => p.replace(/[.]/g, '\\.') + (p.endsWith('/') ? '' : '$')).join('|')})`;
const above = (i) => paths(LAYERS.slice(i + 1).flatMap(([, own]) => own));

const layerRules = LAYERS.slice(0, -1).map(([name, own], i) => ({
  name: `layer-${name}`,
  comment: `src/ ${name} imports only its own layer and the layers below it`,
  severity: 'error',
  from: { path: paths(own), pathNot: TESTS },
  to: { path: above(i) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'tools-import-only-the-kit',
      comment:
        'a tool imports #tool-kit, npm packages, node: builtins, its own folder and tools/_shared/, nothing else',
      severity: 'error',
      from: { path: '^tools/([^/]+)/' },
      to: {
        pathNot: ['^tools/$1/', '^tools/_shared/', '^src/tool-kit/index\\.ts$', '^node_modules/'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'tool-definition-imports-no-package',
      comment:
        'the API process imports every tool\'s tool.ts: it must not load a tool\'s libraries, which only the workers load (docs/benchmarks.md, "First runs")',
      severity: 'error',
      from: { path: '^tools/[^/]+/tool\\.ts$' },
      to: { path: '^node_modules/' },
    },
    {
      name: 'workers-import-only-the-protocol',
      comment: 'the worker imports #worker-protocol, #tool-kit, npm packages, node: builtins and workers/',
      severity: 'error',
      from: { path: '^workers/' },
      to: {
        pathNot: ['^workers/', '^src/(tool-kit|worker-protocol)/index\\.ts$', '^node_modules/'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'kit-by-its-name',
      comment:
        'tools and workers reach src/ by the names #tool-kit and #worker-protocol, never a relative path',
      severity: 'error',
      from: { path: '^(tools|workers|test/fixtures)/' },
      to: { path: '^src/', dependencyTypesNot: ['aliased-subpath-import'] },
    },
    {
      name: 'kit-and-protocol-only-shared',
      comment: 'the tool kit and the worker protocol re-export src/shared/ and load nothing else in a worker',
      severity: 'error',
      from: { path: '^src/(tool-kit|worker-protocol)/' },
      to: { pathNot: '^src/shared/' },
    },
    {
      name: 'src-not-to-tools-or-workers',
      comment:
        'src/ never imports a tool or the worker: it finds tools by scanning, the pool names the worker file',
      severity: 'error',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: '^(tools|workers)/' },
    },
    {
      name: 'src-no-circular',
      comment: 'no import circles in src/',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'src-in-a-layer',
      comment: 'every module of src/ belongs to a layer (LAYERS in .dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^src/', pathNot: `${paths(LAYERS.flatMap(([, p]) => p))}|${TESTS}` },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: '^node_modules/' },
    exclude: { path: '^(dist|test-artifacts)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a layer must not even name a type of the layers above.
    tsPreCompilationDeps: true,
    // Packages resolve as Node resolves them (their `exports`), as do `#tool-kit` and `#worker-protocol`.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
