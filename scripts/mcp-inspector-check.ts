/**
 * The MCP door through the MCP Inspector's CLI (run by scripts/mcp-inspector-check.sh, which
 * starts the servers): `tsx scripts/mcp-inspector-check.ts <mcp-url> <rate-limited-mcp-url>`.
 * Every tool answers its basic example with structuredContent; the refusals an agent must
 * read (bad input, over size, rate limited) come back as isError results carrying their
 * errorCode, never as the client's "Structured content does not match" (-32602). The first
 * failed check ends the run with one line saying what.
 */
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { scanTools } from '../src/registry.js';
import { basicArguments } from '../test/mcp-examples.js';

const [url, limitedUrl] = process.argv.slice(2);
if (!url || !limitedUrl) fail('usage: mcp-inspector-check.ts <mcp-url> <rate-limited-mcp-url>');

interface Inspector {
  /** npx's arguments that run it. */
  npx: string[];
  /** 2.x: `--format json` prints `{"result": …}` and `--tool-args-json` passes arguments verbatim. */
  v2: boolean;
}
/** Inspector 2.x needs Node 22, which the registry's `node` package runs; 0.x runs on Node 20. */
const V2: Inspector = {
  npx: ['-p', 'node@22', '-p', '@modelcontextprotocol/inspector@2.12.0', '--', 'mcp-inspector'],
  v2: true,
};
const V0: Inspector = { npx: ['@modelcontextprotocol/inspector@0.22.0'], v2: false };

interface CallResult {
  isError?: boolean;
  content?: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: { error?: { errorCode?: string; retryAfterSec?: number; rateLimit?: object } };
  tools?: { name: string; outputSchema?: object }[];
  resources?: { uri: string }[];
  resourceTemplates?: { uriTemplate: string }[];
}

function fail(what: string): never {
  console.error(`mcp-inspector-check: FAILED: ${what.replace(/\s+/g, ' ')}`);
  process.exit(1);
}

/** One Inspector CLI run; its printed result (2.x prints `{"result": …}` with --format json). */
function inspect(
  inspector: Inspector,
  target: string,
  args: string[],
): { result?: CallResult; output: string } {
  const { npx, v2 } = inspector;
  const run = spawnSync(
    'npx',
    ['-y', ...npx, '--cli', target, '--transport', 'http', ...(v2 ? ['--format', 'json'] : []), ...args],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      // Without npm's warnings (Inspector 2.x declares Node 22 while npx itself runs on 20).
      env: { ...process.env, npm_config_loglevel: 'error' },
      timeout: 300_000,
      maxBuffer: 64 << 20,
    },
  );
  const output = `${run.stdout}\n${run.stderr}`.trim();
  if (/Structured content does not match|MCP error -32602/.test(output)) fail(`${args.join(' ')}: ${output}`);
  try {
    const printed = JSON.parse(run.stdout) as CallResult & { result?: CallResult };
    return { result: v2 ? printed.result : printed, output };
  } catch {
    return { output };
  }
}

function call(inspector: Inspector, target: string, tool: string, args: Record<string, unknown>) {
  const what = `tools/call ${tool} ${JSON.stringify(args).slice(0, 200)}`;
  const toolArgs = inspector.v2
    ? ['--tool-args-json', JSON.stringify(args)]
    : Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
  const { result, output } = inspect(inspector, target, [
    '--method',
    'tools/call',
    '--tool-name',
    tool,
    ...toolArgs,
  ]);
  if (!result) fail(`${what}: no result printed: ${output.slice(0, 2000)}`);
  return { result, what };
}

function expectAnswer(
  inspector: Inspector,
  target: string,
  tool: string,
  args: Record<string, unknown>,
): void {
  const { result, what } = call(inspector, target, tool, args);
  if (result.isError) fail(`${what}: isError: ${result.content?.[0]?.text}`);
  if (typeof result.structuredContent !== 'object' || result.structuredContent === null)
    fail(`${what}: no structuredContent`);
  if (!isDeepStrictEqual(JSON.parse(result.content?.[0]?.text ?? 'null'), result.structuredContent))
    fail(`${what}: the text block is not the structuredContent`);
}

function expectRefusal(
  inspector: Inspector,
  target: string,
  tool: string,
  args: Record<string, unknown>,
  errorCode: string,
): CallResult['_meta'] {
  const { result, what } = call(inspector, target, tool, args);
  const text = JSON.parse(result.content?.[0]?.text ?? 'null') as { errorCode?: string } | null;
  if (
    result.isError !== true ||
    result._meta?.error?.errorCode !== errorCode ||
    text?.errorCode !== errorCode
  )
    fail(
      `${what}: expected an isError result with ${errorCode}, got ${JSON.stringify(result).slice(0, 2000)}`,
    );
  if (result.structuredContent !== undefined) fail(`${what}: a refusal carries structuredContent`);
  return result._meta;
}

const tools = [...(await scanTools()).values()];

const listed = inspect(V2, url, ['--method', 'tools/list']).result?.tools ?? [];
const names = tools.map((t) => t.def.id).sort();
if (!isDeepStrictEqual(listed.map((t) => t.name).sort(), names))
  fail(`tools/list: expected ${names.join(', ')}, got ${listed.map((t) => t.name).join(', ')}`);
if (listed.some((t) => !t.outputSchema)) fail('tools/list: a tool without outputSchema');
const resources = inspect(V2, url, ['--method', 'resources/list']).result?.resources ?? [];
if (!resources.some((r) => r.uri === 'toolhub://skills/token-counter/SKILL.md'))
  fail('resources/list: no toolhub://skills/token-counter/SKILL.md');
const templates = inspect(V2, url, ['--method', 'resources/templates/list']).result?.resourceTemplates ?? [];
if (!templates.some((t) => t.uriTemplate === 'toolhub://skills/{toolId}/SKILL.md'))
  fail('resources/templates/list: no toolhub://skills/{toolId}/SKILL.md');

for (const { def, docsDir } of tools) expectAnswer(V2, url, def.id, basicArguments(def, docsDir).args);

expectRefusal(V2, url, 'regex-tester', { pattern: 'a', text: 'a', mode: 'nope' }, 'UNSUPPORTED_OPTION');
// qr-code takes 4096 bytes: a bigger text still fits a command line and the HTTP body cap.
expectRefusal(V2, url, 'qr-code', { text: 'x'.repeat(5000), format: 'svg' }, 'INPUT_TOO_LARGE');
// color-palette's limit on the second server is 1 run an hour (mcp-inspector-check.sh).
expectAnswer(V2, limitedUrl, 'color-palette', { color: '#336699', scheme: 'convert' });
const limited = expectRefusal(
  V2,
  limitedUrl,
  'color-palette',
  { color: '#336699', scheme: 'convert' },
  'RATE_LIMITED',
);
if (!(Number(limited?.error?.retryAfterSec) > 0) || !limited?.error?.rateLimit)
  fail(`RATE_LIMITED without retryAfterSec or rateLimit: ${JSON.stringify(limited)}`);

expectAnswer(V0, url, 'token-counter', { text: 'hello', mode: 'count' });
expectRefusal(V0, url, 'token-counter', { text: 'hello', mode: 'nope' }, 'UNSUPPORTED_OPTION');

console.log(
  `MCP Inspector CLI 2.12.0: tools/list, resources/list, resources/templates/list, ${tools.length} tools' basic examples, ` +
    'UNSUPPORTED_OPTION, INPUT_TOO_LARGE and RATE_LIMITED refusals; Inspector 0.22.0 (Node ' +
    `${process.versions.node}): a call and a refusal — all as expected`,
);
