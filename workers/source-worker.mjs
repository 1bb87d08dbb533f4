// Entry of the pool when the hub runs from TypeScript sources (tests, `npm run dev`):
// registers tsx in this worker thread, then loads the real entry. Compiled builds
// load dist/workers/tool-worker.js directly and never use this file.
import { register } from 'tsx/esm/api';

register();
const entry = await import('./tool-worker.ts');
export default entry.default;
