// The page's worker: runs and records programs off the page's thread, so
// that a long run leaves the page responsive and Stop can end it (the page
// terminates this worker and starts another from the same module).
//
// Every message to the page carries the id of the request it answers, so
// the page can ignore a run it has given up on. A run's standard output is
// sent as it is written, in chunks ({id, chunk}); the answer ({id, result,
// ms}) comes after the last chunk, without the standard output it holds.
import { instantiate } from './wasm.js';

/** Writes are gathered for at most this long (ms) before they are sent... */
const GATHER_MS = 25;
/** ...or until this many bytes wait. */
const GATHER_BYTES = 1 << 16;

let icp = null;
const waiting = [];
let current = null;
let gathered = [];
let gatheredBytes = 0;
let lastSent = -Infinity;

function output(bytes) {
  if (current === null) return;
  gathered.push(bytes);
  gatheredBytes += bytes.length;
  if (gatheredBytes >= GATHER_BYTES || performance.now() - lastSent >= GATHER_MS) send();
}

function send() {
  lastSent = performance.now();
  if (gatheredBytes === 0) return;
  let chunk = gathered[0];
  if (gathered.length > 1) {
    chunk = new Uint8Array(gatheredBytes);
    let at = 0;
    for (const part of gathered) {
      chunk.set(part, at);
      at += part.length;
    }
  }
  gathered = [];
  gatheredBytes = 0;
  self.postMessage({ id: current, chunk }, [chunk.buffer]);
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.module) {
    icp = await instantiate(message.module, output);
    self.postMessage({ ready: true });
    for (const m of waiting.splice(0)) answer(m);
    return;
  }
  if (!icp) waiting.push(message);
  else answer(message);
};

function answer({ id, op, fields }) {
  const started = performance.now();
  current = id;
  lastSent = -Infinity;
  try {
    const result = icp.call(op, fields);
    send();
    // The page has it in chunks already: do not copy it again.
    if (op === 2 && typeof result.stdout === 'string') result.stdout = null;
    self.postMessage({ id, result, ms: performance.now() - started });
  } catch (error) {
    // A trap (a bug: the library does not panic on any input), or memory
    // exhausted by a very long recording.
    send();
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  } finally {
    current = null;
  }
}
