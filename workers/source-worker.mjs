// Entry of the pool when the hub runs from TypeScript sources (tests, `npm run dev`):
// registers tsx in this worker thread, then loads the real entry. workers/entry.cjs
// imports it; compiled builds import dist/workers/tool-worker.js instead.
import { register } from 'tsx/esm/api';

register();
const entry = await import('./tool-worker.ts');
export default entry.default;
