import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolvePolicies } from '../config/policy.js';
import { projectRoot, skillsDir } from '../paths.js';
import type { RegisteredTool } from '../registry.js';
import type { ToolDefinition } from '../shared/tool-def.js';
import { applySections, readmeSections } from './readme-sections.js';
import { skillSections } from './skill-sections.js';

export interface DocFile {
  path: string;
  /** The file as it should be. */
  expected: string;
  /** The file as it is ('' when missing). */
  actual: string;
}

/** Every generated document (README, SKILL.md per tool) as it is and as it should be. */
export function generatedDocs(tools: Map<string, RegisteredTool>): DocFile[] {
  const defs = [...tools.values()].map((t) => t.def);
  const policies = resolvePolicies(defs, { DISABLED_TOOLS: '' }, {});
  const readmePath = join(projectRoot, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const docs: DocFile[] = [
    { path: readmePath, actual: readme, expected: applySections(readme, readmeSections(defs)) },
  ];
  for (const def of defs) {
    const path = join(skillsDir, def.id, 'SKILL.md');
    const actual = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const base = actual || skillSkeleton(def);
    docs.push({ path, actual, expected: applySections(base, skillSections(def, policies.get(def.id)!)) });
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
function skillSkeleton(def: ToolDefinition): string {
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
