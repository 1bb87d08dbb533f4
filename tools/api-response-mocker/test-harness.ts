/**
 * Test oracles: run each generated snippet against stubs of its library and report the
 * response it would serve. JavaScript runs in node:vm; curl and Python in bash / python3.
 */
import { spawnSync } from 'node:child_process';
import vm from 'node:vm';

export interface Served {
  status: number;
  body: unknown;
  path?: string;
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null)) as T;
const esm = (code: string): string => code.replace(/^import .*$/gm, '').replace(/^export /gm, '');

/** Installs the fetch mock, then fetches `path` with `method`. */
export async function serveFetch(
  code: string,
  path: string,
  method = 'GET',
): Promise<Served & { real: boolean }> {
  let real = false;
  const fetch = async () => {
    real = true;
    return new Response('real');
  };
  const context = vm.createContext({ URL, Response, fetch });
  vm.runInContext(code.replace(/globalThis\.fetch = /, 'globalThis.mocked = '), context);
  const mocked = vm.runInContext('globalThis.mocked', context) as (i: string, o: object) => Promise<Response>;
  const res = await mocked(path, { method });
  const text = await res.text();
  return { status: res.status, body: real ? text : text === '' ? undefined : JSON.parse(text), real };
}

export function serveMsw(code: string): Served & { method: string } {
  const handlers: {
    method: string;
    path: string;
    resolver: () => { body: unknown; init: { status: number } };
  }[] = [];
  const http = new Proxy(
    {},
    { get: (_, method: string) => (path: string, resolver: never) => ({ method, path, resolver }) },
  );
  class HttpResponse {
    constructor(
      readonly body: unknown,
      readonly init: { status: number },
    ) {}
    static json = (body: unknown, init: { status: number }) => ({ body: plain(body), init });
  }
  const context = vm.createContext({ http, HttpResponse, out: handlers });
  vm.runInContext(`${esm(code)}\nout.push(...handlers);`, context);
  const [handler] = handlers;
  const res = handler!.resolver();
  return {
    method: handler!.method,
    path: handler!.path,
    status: res.init.status,
    body: res.body ?? undefined,
  };
}

export function serveExpress(code: string): Served & { method: string; type?: string } {
  const routes: { method: string; path: string; handler: (req: object, res: object) => void }[] = [];
  const app = new Proxy(
    {},
    {
      get: (_, method: string) =>
        method === 'listen'
          ? () => {}
          : (path: string, handler: never) => routes.push({ method, path, handler }),
    },
  );
  const context = vm.createContext({ express: () => app, console });
  vm.runInContext(esm(code), context);
  const served: Served & { method: string; type?: string } = { status: 0, body: undefined, method: '' };
  const res = {
    status(s: number) {
      served.status = s;
      return res;
    },
    json(b: unknown) {
      served.body = plain(b);
      return res;
    },
    type(t: string) {
      served.type = t;
      return res;
    },
    end: () => res,
  };
  const [route] = routes;
  route!.handler({}, res);
  return { ...served, method: route!.method, path: route!.path };
}

/** The curl argv through a real shell, and the JSON body written in the comments. */
export function curlParts(code: string): { args: string[]; body: unknown } {
  const res = spawnSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${code}`], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`bash failed: ${res.stderr}`);
  const comment = code
    .split('\n')
    .filter((l) => l.startsWith('# '))
    .map((l) => l.slice(2));
  const start = comment.findIndex((l) => /^[[{"\d\-tfn]/.test(l));
  const body = start < 0 ? undefined : JSON.parse(comment.slice(start).join('\n'));
  return { args: res.stdout.split('\0').slice(0, -1), body };
}

const PY_STUB = `
import sys, types, json, re
added = {}
responses = types.ModuleType("responses")
for m in ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]:
    setattr(responses, m, m)
responses.activate = lambda f: f
def add(method, url, status=200, body=None, content_type=None):
    added.update(method=method, url=url, status=status, body=body, content_type=content_type)
responses.add = add
class Resp:
    def __init__(self, status, body): self.status_code, self._body = status, body
    def json(self): return json.loads(self._body)
requests = types.ModuleType("requests")
def make(method):
    def call(url):
        pattern = added["url"]
        hit = pattern.match(url) if hasattr(pattern, "match") else pattern == url
        assert hit and added["method"] == method, (url, added)
        return Resp(added["status"], added["body"])
    return call
for m in ["get", "post", "put", "patch", "delete", "head", "options"]:
    setattr(requests, m, make(m.upper()))
sys.modules.update(responses=responses, requests=requests)
out = sys.stdout
exec(compile(sys.stdin.read(), "snippet", "exec"), {"__name__": "__main__"})
body = added["body"]
out.write(json.dumps({"status": added["status"], "body": None if body is None else json.loads(body)}))
`;

/** Runs the Python test with stub `responses`/`requests`: its own asserts run too. */
export function servePython(code: string): Served {
  const res = spawnSync('python3', ['-c', PY_STUB], { input: code, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`python failed: ${res.stderr}`);
  const out = res.stdout.slice(res.stdout.indexOf('{'));
  return JSON.parse(out) as Served;
}
