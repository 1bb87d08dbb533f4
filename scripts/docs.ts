// Regenerates the generated sections of README.md, docs/*.md and tools/<toolId>/SKILL.md (`npm run docs`).
import { generatedDocs, writeDocs } from '../src/docs/generate.js';
import { scanTools } from '../src/registry.js';
import { wiringRows } from '../src/wiring.js';

const changed = writeDocs(generatedDocs(await scanTools(), wiringRows()));
console.log(changed.length ? `updated:\n${changed.join('\n')}` : 'docs are up to date');
