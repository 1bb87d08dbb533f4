import type { RegisteredTool } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def.js';
import { html } from './html.js';
import { icon } from './icons.js';
import { type AssetUrls, layout } from './layout.js';

/** Headings of the registry's categories; an unknown category shows its own name. */
const CATEGORY_NAMES: Record<string, string> = { devtools: 'Developer tools', ai: 'AI tools' };

export function categoryName(category: string): string {
  return CATEGORY_NAMES[category] ?? category;
}

/** `/tools/`: every tool, grouped by category; the filter box works in the browser only. */
export function renderIndex(tools: Map<string, RegisteredTool>, assets: AssetUrls): string {
  const groups = new Map<string, ToolSpec[]>();
  for (const { def } of tools.values()) {
    groups.set(def.category, [...(groups.get(def.category) ?? []), def]);
  }
  const sections = [...groups].map(
    ([category, defs]) => html`<section class="category" aria-labelledby="cat-${category}" data-category>
<h2 id="cat-${category}">${categoryName(category)}</h2>
<ul class="cards">
${defs
  .sort((x, y) => x.name.localeCompare(y.name))
  .map(
    (
      def,
    ) => html`<li class="card" data-search="${[def.name, def.id, def.description, ...def.keywords].join(' ').toLowerCase()}">
<h3><a href="/tools/${def.id}/">${icon(def.icon)}<span>${def.name}</span></a></h3>
<p>${def.description}</p>
</li>`,
  )}
</ul>
</section>`,
  );
  const main = html`<h1>Tools</h1>
<p class="lead">${tools.size} tools, each with a page to try it and the same API for scripts and agents:
the <a href="/docs">API reference</a>, the <a href="/api/skills-index.json">skills index</a> and each tool's
<code>SKILL.md</code>.</p>
<div class="filter" data-filter hidden>
<label for="filter">Filter tools</label>
<input id="filter" type="search" autocomplete="off" spellcheck="false" aria-describedby="filter-count">
<p id="filter-count" class="hint" role="status"></p>
</div>
${sections}`;
  return layout({
    title: 'Tools · Tool Hub',
    description: 'Every tool of this Tool Hub, with a page to try it.',
    main,
    assets,
  });
}
