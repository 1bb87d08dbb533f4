/**
 * Test oracles: run a generated snippet against a stub client and report what it would send.
 * JavaScript runs in a node:vm context; curl and Python run in a real bash / python3 when present.
 */
import { spawnSync } from 'node:child_process';
import vm from 'node:vm';
import { toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

/** The tool as the service runs it: input through its schema first. */
export const buildRequest = toolRunner(tool, run);

export interface Sent {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export async function runFetch(code: string): Promise<Sent> {
  const calls: Sent[] = [];
  const fetch = async (
    url: string,
    options: { method: string; headers?: Record<string, string>; body?: string },
  ) => {
    calls.push(plain({ url, method: options.method, headers: options.headers, body: options.body }));
    return { json: async () => null, headers: [] };
  };
  const context = vm.createContext({
    fetch,
    console: { log() {}, error: (e: unknown) => calls.push({ url: `ERR ${e}` }) },
  });
  await vm.runInContext(`(async () => {\n${code}\n})()`, context);
  return only(calls);
}

export async function runAxios(code: string): Promise<Sent> {
  const calls: Sent[] = [];
  const axios = {
    request: async (o: { url: string; method: string; headers?: Record<string, string>; data?: unknown }) => {
      calls.push(plain({ url: o.url, method: o.method, headers: o.headers, body: o.data }));
      return { data: null };
    },
  };
  const body = code.replace("import axios from 'axios';", '');
  const context = vm.createContext({
    axios,
    console: { log() {}, error: (e: unknown) => calls.push({ url: `ERR ${e}` }) },
  });
  await vm.runInContext(`(async () => {\n${body}\n})()`, context);
  return only(calls);
}

function only(calls: Sent[]): Sent {
  if (calls.length !== 1) throw new Error(`expected one call, got ${JSON.stringify(calls)}`);
  return calls[0]!;
}

/** The argv the curl command would get, after the shell's own quoting rules. */
export function curlArgs(code: string): string[] {
  const res = spawnSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${code}`], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`bash failed: ${res.stderr}`);
  return res.stdout.split('\0').slice(0, -1);
}

const PY_STUB = `
import sys, types, json, builtins
captured = {}
class Response:
    headers = {}
    def json(self): return None
def make(method):
    def call(url, **kw):
        captured.update(method=method, url=url, **kw)
        return Response()
    return call
m = types.ModuleType("requests")
for name in ["get", "post", "put", "patch", "delete", "head", "options"]:
    setattr(m, name, make(name.upper()))
m.request = lambda method, url, **kw: make(method)(url, **kw)
sys.modules["requests"] = m
out = sys.stdout
builtins.print = lambda *a, **k: None
exec(compile(sys.stdin.read(), "snippet", "exec"), {})
body = captured.get("json", captured.get("data"))
if isinstance(body, bytes): body = body.decode("utf-8")
out.write(json.dumps({"url": captured["url"], "method": captured["method"], "headers": captured.get("headers"), "body": body}))
`;

/** What the Python snippet would pass to requests (json= or data=, bytes decoded as UTF-8). */
export function runPython(code: string): Sent {
  const res = spawnSync('python3', ['-c', PY_STUB], { input: code, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`python failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as Sent;
}
