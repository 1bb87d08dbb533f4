import { buildApp } from './src/app.js';
const app = await buildApp({ logger: false, env: { LOG_LEVEL: 'silent' } });
await app.ready(); await app.pool.warmUp();
const t0 = Date.now();
const timer = setInterval(() => { const s = app.pool.stats(); console.log(Date.now() - t0, JSON.stringify({ w: s.workers, held: s.held, q: s.queueSize, inUse: s.inUse })); }, 200);
const res = await Promise.all(Array.from({ length: 200 }, (_, i) => app.inject({ method: 'POST', url: '/api/tools/run/', remoteAddress: `10.9.${i >> 8}.${i & 255}`, payload: { toolId: 'token-counter', a: `hello ${i}` } })));
clearInterval(timer);
const codes: Record<string, number> = {};
for (const r of res) { const k = r.statusCode + (r.statusCode !== 200 ? r.json().errorCode : ''); codes[k] = (codes[k] ?? 0) + 1; }
console.log(codes, Date.now() - t0);
const d = res.filter(r => r.statusCode === 200).map(r => r.json().runtime.durationMs).sort((a, b) => b - a).slice(0, 8);
console.log('top durations', d);
await app.close();
