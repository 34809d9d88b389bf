// The page's worker: runs and records programs off the page's thread, so
// that a long run leaves the page responsive and Stop can end it (the page
// terminates this worker and starts another from the same module).
import { instantiate } from './wasm.js';

let icp = null;
const waiting = [];

self.onmessage = async (event) => {
  const message = event.data;
  if (message.module) {
    icp = await instantiate(message.module);
    self.postMessage({ ready: true });
    for (const m of waiting.splice(0)) answer(m);
    return;
  }
  if (!icp) waiting.push(message);
  else answer(message);
};

function answer({ id, op, fields }) {
  const started = performance.now();
  try {
    const result = icp.call(op, fields);
    self.postMessage({ id, result, ms: performance.now() - started });
  } catch (error) {
    // A trap (a bug: the library does not panic on any input), or memory
    // exhausted by a very long recording.
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
}
