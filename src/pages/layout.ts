import { type Html, html } from './html.js';

/** Where the hashed assets are (src/pages/assets.ts); null members are not there. */
export interface AssetUrls {
  script: string | null;
  style: string | null;
  favicon: string | null;
  /** Every browser module, preloaded so the imports do not load one after another. */
  modules: string[];
}

export interface PageParts {
  title: string;
  description: string;
  main: Html;
  assets: AssetUrls;
}

/** The document every page shares: head, skip link, site header, main, footer. */
export function layout({ title, description, main, assets }: PageParts): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="description" content="${description}">
<title>${title}</title>
${assets.favicon ? html`<link rel="icon" type="image/svg+xml" href="${assets.favicon}">` : null}
${assets.style ? html`<link rel="stylesheet" href="${assets.style}">` : null}
${assets.modules.map((m) => html`<link rel="modulepreload" href="${m}">`)}
${assets.script ? html`<script type="module" src="${assets.script}"></script>` : null}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="brand" href="/tools/">Tool Hub</a>
<nav aria-label="Site">
<ul>
<li><a href="/tools/">Tools</a></li>
<li><a href="/docs">API reference</a></li>
<li><a href="/api/skills-index.json">Catalogue</a></li>
</ul>
</nav>
</header>
<main id="main" tabindex="-1">
${main}
</main>
<footer class="site">
<p>Every run here goes through the same dedicated endpoints and limits as any client.
<a href="/api/openapi.yaml">OpenAPI document</a> · <a href="/api/skills-bundle.json">Skills bundle</a> · <a href="/healthz">Health</a></p>
</footer>
</body>
</html>
`;
  return page.value;
}
