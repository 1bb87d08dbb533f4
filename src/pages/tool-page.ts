import type { ToolPolicy } from '../config/policy.js';
import type { RegisteredTool } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def.js';
import { renderApi, renderLimits } from './api-section.js';
import type { TryIt } from './form-model.js';
import { html, prose } from './html.js';
import { icon } from './icons.js';
import { categoryName } from './index-page.js';
import { type AssetUrls, layout } from './layout.js';
import { renderTryIt } from './try-it-form.js';

export interface ToolPageInput {
  def: ToolSpec;
  policy: ToolPolicy;
  /** Whether a client can run it now (RUNTIME_ENABLED and the tool's switch). */
  callable: boolean;
  /** API keys are on: the form asks for one and the curl lines send one. */
  keyRequired: boolean;
  model: TryIt;
  tools: Map<string, RegisteredTool>;
  baseUrl: string;
  assets: AssetUrls;
}

/** `/tools/<toolId>/`: what the descriptor says, as a page, with a form to try it. */
export function renderToolPage({
  def,
  policy,
  callable,
  keyRequired,
  model,
  tools,
  baseUrl,
  assets,
}: ToolPageInput): string {
  const main = html`<p class="crumbs"><a href="/tools/">All tools</a> · ${categoryName(def.category)}</p>
<h1>${icon(def.icon)}<span>${def.name}</span></h1>
<p class="lead">${def.description}</p>
${renderTryIt(def, model, callable, keyRequired)}
${
  def.howTo.length
    ? html`<section aria-labelledby="how">
<h2 id="how">How to use it</h2>
<ol class="steps">
${def.howTo.map((s) => html`<li><strong>${s.title}.</strong> ${prose(s.description)}</li>`)}
</ol>
</section>`
    : null
}
${renderApi(def, model, baseUrl, keyRequired)}
${renderLimits(policy, callable)}
${
  def.faqs.length
    ? html`<section aria-labelledby="faq">
<h2 id="faq">Questions</h2>
${def.faqs.map(
  (f) => html`<h3>${f.question}</h3>
<p>${prose(f.answer)}</p>`,
)}
</section>`
    : null
}
${
  def.relatedTools.length
    ? html`<section aria-labelledby="related">
<h2 id="related">Related tools</h2>
<ul class="related">
${def.relatedTools.map((id) => {
  const rel = tools.get(id)?.def;
  return rel ? html`<li><a href="/tools/${id}/">${icon(rel.icon)}<span>${rel.name}</span></a></li>` : null;
})}
</ul>
</section>`
    : null
}`;
  return layout({ title: `${def.name} · Tool Hub`, description: def.description, main, assets });
}

/** The page for a path under /tools/ that names no tool. */
export function renderNotFound(path: string, assets: AssetUrls): string {
  const main = html`<h1>No such page</h1>
<p class="lead">Nothing is at <code>${path}</code>. <a href="/tools/">See every tool</a>.</p>`;
  return layout({ title: 'Not found · Tool Hub', description: 'No such page.', main, assets });
}
