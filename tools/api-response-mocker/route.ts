import { ToolInputError, unsupported } from '#tool-kit';
import { DEFAULT_ROUTE } from './tool.js';

export const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const MAX_PATH_LENGTH = 512;

export interface Route {
  method: string;
  path: string;
  /** The path as a regular expression source: `:name` segments match one segment. */
  pattern: string;
  /** The path with every `:name` replaced by a sample value, for requests to the mock. */
  samplePath: string;
}

/**
 * Characters that are literal in Express 5 (path-to-regexp 8), MSW and a URL path alike;
 * `:name` is the only parameter syntax, so `* ( ) [ ] { } ? + !` are refused.
 */
const SEGMENT_CHARS = /^[A-Za-z0-9\-._~@,;=]*$/;
const PARAM = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses `METHOD /path` (a bare `/path` means GET). */
export function parseRoute(raw: string | undefined): Route {
  // An empty route (`?b=`) is text, so the schema's default does not fill it: it means the default.
  const text = raw || DEFAULT_ROUTE;
  const parts = text.trim().split(/[ \t]+/);
  const [methodText, path] = parts.length === 1 ? ['GET', parts[0]!] : parts;
  if (parts.length > 2 || path === undefined) {
    throw new ToolInputError('route must look like `METHOD /path`, e.g. `GET /api/users/:id`');
  }
  const method = methodText!.toUpperCase();
  if (!(ROUTE_METHODS as readonly string[]).includes(method))
    throw unsupported('route method', methodText, ROUTE_METHODS);
  return { method, ...checkPath(path) };
}

function checkPath(path: string): Omit<Route, 'method'> {
  if (!path.startsWith('/'))
    throw new ToolInputError(`route path must start with "/": ${JSON.stringify(path)}`);
  if (path.length > MAX_PATH_LENGTH)
    throw new ToolInputError(`route path is longer than ${MAX_PATH_LENGTH} characters`);
  if (/[?#]/.test(path)) throw new ToolInputError('route path must not contain a query string or fragment');
  const pattern: string[] = [];
  const sample: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (segment.startsWith(':')) {
      if (!PARAM.test(segment))
        throw new ToolInputError(`route parameter ${JSON.stringify(segment)} is not a valid name`);
      pattern.push('[^/]+');
      sample.push('1');
      continue;
    }
    const bad = [...segment].find((ch) => !SEGMENT_CHARS.test(ch) && ch !== '%');
    if (bad !== undefined)
      throw new ToolInputError(`route path contains the unsupported character ${JSON.stringify(bad)}`);
    if (/%(?![0-9A-Fa-f]{2})/.test(segment)) throw new ToolInputError('route path has a malformed %-escape');
    pattern.push(segment.replace(/[.]/g, '\\.'));
    sample.push(segment);
  }
  return { path, pattern: `^/${pattern.join('/')}/?$`, samplePath: `/${sample.join('/')}` };
}
