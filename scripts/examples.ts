// Writes tools/<toolId>/examples/expectedOutput.json by really running each basic.json
// through the hub (`npm run examples`); test/examples.test.ts checks they stay true.
// `npm run examples -- <toolId>...` limits the run to those tools.
import { relative } from 'node:path';
import { projectRoot } from '../src/paths.js';
import { writeExpectedOutputs } from './write-examples.js';

for (const path of await writeExpectedOutputs({ only: process.argv.slice(2) })) {
  console.log(`${relative(projectRoot, path)} written`);
}
