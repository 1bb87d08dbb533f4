import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolvePolicies } from '../config/policy.js';
import { projectRoot } from '../paths.js';
import type { RegisteredTool } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def.js';
import { docSections } from './readme-sections.js';
import { applySections } from './sections.js';
import { skillSections } from './skill-sections.js';
import { type WiringRow, wiringTable } from './wiring-table.js';

/** The document whose plugins table is the app's wiring (src/wiring.ts). */
export const WIRING_DOC = 'docs/architecture.md';

export interface DocFile {
  path: string;
  /** The generated sections the file carries. */
  sections: string[];
  /** The file as it should be. */
  expected: string;
  /** The file as it is ('' when missing). */
  actual: string;
}

/**
 * Every document with generated sections (README.md, docs/*.md, tools/<toolId>/SKILL.md)
 * as it is and as it should be.
 */
export function generatedDocs(tools: Map<string, RegisteredTool>, wiring: readonly WiringRow[]): DocFile[] {
  const registered = [...tools.values()];
  const policies = resolvePolicies(
    registered.map((t) => t.def),
    { DISABLED_TOOLS: '' },
    {},
  );
  const docs: DocFile[] = [];
  const files = {
    ...docSections(registered),
    [WIRING_DOC]: { plugins: wiringTable(wiring) },
  };
  for (const [file, sections] of Object.entries(files)) {
    const path = join(projectRoot, file);
    if (!existsSync(path)) throw new Error(`${file} is missing: it carries generated sections`);
    const actual = readFileSync(path, 'utf8');
    docs.push({
      path,
      sections: Object.keys(sections),
      actual,
      expected: applySections(actual, sections, file),
    });
  }
  for (const { def, docsDir } of registered) {
    const path = join(docsDir, 'SKILL.md');
    const actual = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const base = actual || skillSkeleton(def);
    const sections = skillSections(def, policies.get(def.id)!);
    docs.push({
      path,
      sections: Object.keys(sections),
      actual,
      expected: applySections(base, sections, relative(projectRoot, path)),
    });
  }
  return docs;
}

export function writeDocs(docs: DocFile[]): string[] {
  const changed = docs.filter((d) => d.actual !== d.expected);
  for (const doc of changed) {
    mkdirSync(join(doc.path, '..'), { recursive: true });
    writeFileSync(doc.path, doc.expected);
  }
  return changed.map((d) => d.path);
}

/** A new SKILL.md: front matter for agent skill loaders, generated sections, prose to write. */
function skillSkeleton(def: ToolSpec): string {
  return `---
name: ${def.id}
description: ${JSON.stringify(def.description)}
---
# ${def.name}

${def.description}

## When to use

TODO

## Inputs

<!-- inputs:start -->
<!-- inputs:end -->

## Endpoints

<!-- endpoints:start -->
<!-- endpoints:end -->

## Limits

<!-- limits:start -->
<!-- limits:end -->

## Errors and what to do

TODO

## Worked example

TODO
`;
}
