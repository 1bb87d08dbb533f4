'use strict';
/*
 * The pool's worker file, CommonJS on purpose. Piscina loads its worker file with require(),
 * and Node 20's require() of an ES module aborts the whole process when the thread is
 * terminated while the module is being instantiated (ModuleWrap::InstantiateSync then asks
 * V8 whether a half-instantiated graph is async: "v8::Module::IsGraphAsync must be used on
 * an instantiated module"); a pool closed right after it started did that in CI. import()
 * takes the asynchronous path, where a termination only ends the thread. The real entry is
 * named by the pool (src/paths.ts, workerEntry): the compiled tool-worker.js, or the
 * source-worker.mjs shim when the hub runs from sources.
 */
const { workerData } = require('node:worker_threads');

const entry = import(workerData.entry);
// A failed load is reported by the first task that awaits it, not as an unhandled rejection.
entry.catch(() => {});

module.exports = (task) => entry.then((m) => m.default(task));
