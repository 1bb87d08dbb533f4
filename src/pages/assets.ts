import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../paths.js';
import { FAVICON_SVG } from './icons.js';
import type { AssetUrls } from './layout.js';

/** `npm run build` compiles web/ here (web/tsconfig.json) and copies its stylesheets beside. */
export const WEB_DIST = join(projectRoot, 'dist', 'web');
/** Served as one `styles.css`, in this order (the cascade depends on it; `[hidden]` is last). */
const STYLESHEETS = ['base.css', 'page.css', 'answer.css'];
export const ASSET_PREFIX = '/tools/assets/';

export interface Asset {
  body: Buffer;
  type: string;
}

export interface AssetSet {
  /** Content hash of every asset together: part of each asset's URL, so they can be cached for good. */
  hash: string;
  files: Map<string, Asset>;
  urls: AssetUrls;
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/**
 * Reads the compiled browser code once at boot. The modules import each other by relative
 * path, so they share one hashed folder (/tools/assets/<hash>/app.js) rather than a hash
 * per file name. Without a build (tests run from sources) the pages still render, with no
 * script or stylesheet; `missing` says so for the boot log.
 */
export function loadAssets(dir: string = WEB_DIST): AssetSet & { missing: boolean } {
  const files = new Map<string, Asset>();
  files.set('favicon.svg', { body: Buffer.from(FAVICON_SVG), type: TYPES.svg! });
  const missing = !existsSync(join(dir, 'app.js'));
  if (!missing) {
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith('.js')) files.set(name, { body: readFileSync(join(dir, name)), type: TYPES.js! });
    }
    const css = STYLESHEETS.filter((n) => existsSync(join(dir, n))).map((n) => readFileSync(join(dir, n)));
    if (css.length) files.set('styles.css', { body: Buffer.concat(css), type: TYPES.css! });
  }
  const digest = createHash('sha256');
  for (const [name, asset] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    digest.update(name).update('\0').update(asset.body).update('\0');
  }
  const hash = digest.digest('hex').slice(0, 16);
  const url = (name: string) => (files.has(name) ? `${ASSET_PREFIX}${hash}/${name}` : null);
  return {
    hash,
    files,
    missing,
    urls: {
      script: url('app.js'),
      style: url('styles.css'),
      favicon: url('favicon.svg'),
      modules: [...files.keys()].filter((n) => n.endsWith('.js') && n !== 'app.js').map((n) => url(n)!),
    },
  };
}
