// The page's worker: runs and records programs off the page's thread, so
// that a long run leaves the page responsive and Stop can end it (the page
// terminates this worker and starts another from the same module).
//
// Every message to the page carries the id of the request it answers, so
// the page can ignore a run it has given up on. A run's standard output and
// standard error are sent as they are written, in chunks ({id, chunk} and
// {id, errors}); the answer ({id, result, ms}) comes after the last chunk,
// without the standard output it holds.
import { instantiate, Op } from './wasm.js';

/** Writes are gathered for at most this long (ms) before they are sent... */
const GATHER_MS = 25;
/** ...or until this many bytes wait. */
const GATHER_BYTES = 1 << 16;

let icp = null;
const waiting = [];
let current = null;
let lastSent = -Infinity;
/** Writes gathered, per stream (1 standard output, 2 standard error). */
const gathered = { 1: [], 2: [] };
const gatheredBytes = { 1: 0, 2: 0 };

function output(bytes, stream) {
  if (current === null) return;
  gathered[stream].push(bytes);
  gatheredBytes[stream] += bytes.length;
  if (gatheredBytes[stream] >= GATHER_BYTES || performance.now() - lastSent >= GATHER_MS) send();
}

function send() {
  lastSent = performance.now();
  for (const stream of [1, 2]) {
    const parts = gathered[stream];
    if (gatheredBytes[stream] === 0) continue;
    let chunk = parts[0];
    if (parts.length > 1) {
      chunk = new Uint8Array(gatheredBytes[stream]);
      let at = 0;
      for (const part of parts) {
        chunk.set(part, at);
        at += part.length;
      }
    }
    gathered[stream] = [];
    gatheredBytes[stream] = 0;
    self.postMessage(stream === 1 ? { id: current, chunk } : { id: current, errors: chunk }, [chunk.buffer]);
  }
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.debug) return debugMessage(message);
  if (message.module) {
    icp = await instantiate(message.module, output);
    self.postMessage({ ready: true });
    for (const m of waiting.splice(0)) (m.debug ? debugMessage(m) : answer(m));
    return;
  }
  if (!icp) waiting.push(message);
  else answer(message);
};

// -- the debugger ------------------------------------------------------------
//
// A debugged run lives in this worker between messages (web/wasm `debug`,
// `advance`): {debug: 'start', id, fields} starts it; {debug: 'go', id,
// breakpoints, leave, most, from} runs it on, in slices of about SLICE_MS with a
// pause between them for messages to arrive, until a breakpoint, the end,
// `most` steps (counted from `from`, the steps run so far) or {debug:
// 'pause'}; {debug: 'breakpoints', breakpoints}
// changes the breakpoints of a run going on. Each slice sends
// {id, debug: 'progress', ran, next}; the stop sends {id, debug: 'stopped',
// answer} with the steps run since the last stop.

/** How long a slice runs before the worker looks at its messages (ms). */
const SLICE_MS = 40;

const debugging = { going: false, pause: false, breakpoints: '', slice: 1000 };

function debugMessage(message) {
  if (message.debug === 'pause') {
    debugging.pause = true;
    return;
  }
  if (message.debug === 'breakpoints') {
    debugging.breakpoints = message.breakpoints;
    return;
  }
  if (!icp) {
    waiting.push(message);
    return;
  }
  if (message.debug === 'start') {
    current = message.id;
    lastSent = -Infinity;
    const answer = icp.call(Op.debug, message.fields);
    current = null;
    self.postMessage({ id: message.id, debug: 'started', answer });
    return;
  }
  if (message.debug === 'go' && !debugging.going) go(message);
}

async function go({ id, breakpoints, leave, most, from }) {
  Object.assign(debugging, { going: true, pause: false, breakpoints });
  let left = most ?? Infinity;
  let answer = null;
  let ran = from ?? 0;
  current = id;
  lastSent = -Infinity;
  try {
    for (;;) {
      const slice = Math.max(1, Math.min(debugging.slice, left));
      const started = performance.now();
      answer = icp.call(Op.advance, [String(slice), debugging.breakpoints, leave ? '1' : '', '']);
      const ms = performance.now() - started;
      leave = false;
      left -= answer.ran - ran;
      ran = answer.ran;
      // Aim at SLICE_MS a slice.
      if (answer.pause === 'slice') debugging.slice = Math.max(1, Math.min(1 << 20, Math.round(slice * (ms > 1 ? SLICE_MS / ms : 2))));
      send();
      if (answer.pause !== 'slice' || left <= 0 || debugging.pause) break;
      self.postMessage({ id, debug: 'progress', ran: answer.ran, next: answer.next });
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (debugging.pause) break;
    }
    // The steps since the last stop, and where it stopped.
    const pause = answer.pause;
    answer = icp.call(Op.advance, ['0', '', '', '1']);
    if (pause !== 'slice') answer.pause = pause;
    send();
    self.postMessage({ id, debug: 'stopped', answer });
  } catch (error) {
    send();
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  } finally {
    current = null;
    debugging.going = false;
  }
}

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
