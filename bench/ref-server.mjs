// Reference servers of the benchmark: the physical limit of a JSON API on this stack.
// Plain JavaScript run by `node` with the project's own fastify, so nothing but fastify
// (no tsx loader, no hub code) is measured. Usage: node bench/ref-server.mjs get|post|get-bytes <file>
// Listens on 127.0.0.1, port 0; prints {"port":N} on stdout once listening.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const mode = process.argv[2];

// REF_PROCESSES=N (the scaling stage, bench/scaling.ts): N such servers on one port, as the
// hub's HUB_PROCESSES runs N API processes (node:cluster; listen(0) gives every one the same port).
const processes = Number(process.env.REF_PROCESSES ?? '1');
if (cluster.isPrimary && processes > 1) {
  for (let i = 0; i < processes; i++) cluster.fork();
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      process.exit(0);
    });
  }
  await new Promise(() => {});
}

// The body the harness sends (bench/payloads.ts, ~208 bytes), described as tightly as
// the hub describes its runtime body, so validation costs what it would cost there.
const bodySchema = {
  type: 'object',
  required: ['toolId', 'input'],
  additionalProperties: false,
  properties: {
    toolId: { type: 'string', minLength: 1, maxLength: 64 },
    source: { type: 'string', enum: ['web', 'api', 'mcp', 'direct_framework'] },
    input: {
      type: 'object',
      required: ['a'],
      additionalProperties: false,
      properties: {
        a: { type: 'string', maxLength: 1048576 },
        b: { type: 'string', maxLength: 4096 },
        c: { type: 'string', maxLength: 4096 },
        mode: { type: 'string', maxLength: 32 },
      },
    },
    meta: {
      type: 'object',
      additionalProperties: { type: 'string', maxLength: 256 },
    },
  },
};

// A response schema makes fastify serialise with fast-json-stringify, as the hub does.
const responseSchema = {
  type: 'object',
  required: ['ok', 'result', 'runtime'],
  properties: {
    ok: { type: 'boolean' },
    result: {
      type: 'object',
      properties: { toolId: { type: 'string' }, chars: { type: 'integer' }, mode: { type: 'string' } },
    },
    runtime: {
      type: 'object',
      properties: { requestId: { type: 'string' }, durationMs: { type: 'number' } },
    },
  },
};

const app = Fastify({ logger: false });
if (mode === 'get') {
  app.get('/', async () => ({ ok: true, hello: 'world', service: 'reference' }));
} else if (mode === 'get-bytes') {
  // The same bytes the hub serves (a file the harness wrote): what the payload alone costs.
  const body = readFileSync(process.argv[3]);
  app.get('/', (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
} else if (mode === 'post') {
  app.post('/', { schema: { body: bodySchema, response: { 200: responseSchema } } }, async (req) => ({
    ok: true,
    result: { toolId: req.body.toolId, chars: req.body.input.a.length, mode: req.body.input.mode ?? 'count' },
    runtime: { requestId: req.id, durationMs: 0 },
  }));
} else {
  process.stderr.write(`usage: node bench/ref-server.mjs get|post|get-bytes <file> (got ${mode})\n`);
  process.exit(2);
}

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);

// The harness stops us by PID with SIGTERM; close cleanly so the port is released at once.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
