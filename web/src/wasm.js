// The JavaScript side of web/wasm/src/lib.rs: one export, icp_call(op,
// ptr, len), reached through length-prefixed request fields; answers are
// JSON. Used by the page (check, emit, position) and by its worker (run,
// debug), each with its own instance of one compiled module. The
// module imports two functions, env.icp_output(ptr, len) and
// env.icp_errors(ptr, len): a run's standard output and standard error as
// they are written (the worker streams them to the page).

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The operations of icp_call (lib.rs, `call`). */
export const Op = { about: 0, check: 1, run: 2, emit: 4, position: 5, debug: 6, advance: 7 };

/** An instance of the compiled icp2c module, with `call(op, fields)`;
 * `onOutput(bytes, stream)` gets a copy of each write to a run's standard
 * output (`stream` 1) or standard error (2). */
export async function instantiate(module, onOutput = () => {}) {
  let ex = null;
  const env = {
    icp_output: (ptr, len) => onOutput(new Uint8Array(ex.memory.buffer, ptr, len).slice(), 1),
    icp_errors: (ptr, len) => onOutput(new Uint8Array(ex.memory.buffer, ptr, len).slice(), 2),
  };
  const instance = await WebAssembly.instantiate(module, { env });
  ex = instance.exports;
  return {
    /** Answers `op` for `fields` (strings or byte arrays): the parsed JSON. */
    call(op, fields) {
      const parts = fields.map((f) => (typeof f === 'string' ? encoder.encode(f) : f));
      const len = parts.reduce((n, p) => n + 4 + p.length, 0);
      const ptr = ex.icp_alloc(len);
      // The memory may grow inside icp_alloc: views are taken after it.
      const view = new DataView(ex.memory.buffer);
      const bytes = new Uint8Array(ex.memory.buffer);
      let at = ptr;
      for (const p of parts) {
        view.setUint32(at, p.length, true);
        bytes.set(p, at + 4);
        at += 4 + p.length;
      }
      ex.icp_call(op, ptr, len);
      const answer = new Uint8Array(ex.memory.buffer, ex.icp_result_ptr(), ex.icp_result_len());
      return JSON.parse(decoder.decode(answer));
    },
  };
}
