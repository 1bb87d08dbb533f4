'use strict';
/*
 * The pool's worker file, CommonJS on purpose. Piscina loads its worker file with require(),
 * and Node 20's require() of an ES module aborts the whole process when the thread is
 * terminated while the module is being instantiated (ModuleWrap::InstantiateSync then asks
 * V8 whether a half-instantiated graph is async: "v8::Module::IsGraphAsync must be used on
 * an instantiated module"), as a pool closed right after it starts can do. import()
 * takes the asynchronous path, where a termination only ends the thread. The real entry is
 * named by the pool (src/paths.ts, workerEntry): the compiled tool-worker.js, or the
 * source-worker.mjs shim when the hub runs from sources.
 */
const { workerData } = require('node:worker_threads');

/** The entry's run function once loaded: every batch after the first calls it directly. */
let run = null;
const loaded = import(workerData.entry).then((m) => {
  run = m.default;
  return run;
});
// A failed load is reported by the first task that awaits it, not as an unhandled rejection.
loaded.catch(() => {});

module.exports = (task) => (run ? run(task) : loaded.then((r) => r(task)));
