// Writes skills/<toolId>/examples/expectedOutput.json by really running each basic.json
// through the hub (`npm run examples`); test/examples.test.ts checks they stay true.
import { readFileSync, writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { examplePath } from '../src/docs/examples.js';

const app = await buildApp({ logger: false, env: { LOG_LEVEL: 'silent', POOL_THREADS: '1' } });
try {
  // `npm run examples -- <toolId>...` limits the run to those tools.
  const only = process.argv.slice(2);
  for (const toolId of app.tools.keys()) {
    if (only.length > 0 && !only.includes(toolId)) continue;
    const basic = JSON.parse(readFileSync(examplePath(toolId, 'basic'), 'utf8'));
    const res = await app.inject({ method: 'POST', url: '/api/tools/run/', payload: basic });
    if (res.statusCode !== 200)
      throw new Error(`${toolId}: basic example answered ${res.statusCode}: ${res.body}`);
    writeFileSync(examplePath(toolId, 'expectedOutput'), `${JSON.stringify(res.json().result, null, 2)}\n`);
    console.log(`${toolId}: expectedOutput.json written`);
  }
} finally {
  await app.close();
}
