// The playground page: an editor, the examples, Run and Debug in a worker,
// diagnostics, the board view, generated C and Rust, shareable links.
import { basicSetup } from 'codemirror';
import { EditorView, Decoration, keymap, gutter, GutterMarker } from '@codemirror/view';
import { EditorState, Compartment, StateEffect, StateField, Prec, RangeSet } from '@codemirror/state';
import { codeFolding, foldEffect, unfoldAll, forceParsing, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { cpp } from '@codemirror/lang-cpp';
import { rust } from '@codemirror/lang-rust';
import { modes } from './modes.js';
import { instantiate, Op } from './wasm.js';
import { Replay, drawReplay, drawPosition } from './board.js';
import { OutputView } from './output.js';
import { codeMap } from './codemap.js';
import examples from '../build/examples.json';

/** The compiler's download, started first (index.html preloads it). */
const wasmResponse = fetch('icp2c.wasm');

/** Most steps a debugged run keeps for stepping back (web/wasm's
 * DEBUG_HISTORY). */
const DEBUG_HISTORY = 100000;
/** CHEG's default depth, as `icp2c run` has it (§7.4). */
const DEFAULT_DEPTH = 4;
const EXTENSIONS = { icp: 'InfChessPro', fin: 'Finvara', cheg: 'CHEG' };
/** Each language's reference, on the repository. */
const REFERENCE = (lang) => `https://github.com/icp2c/icp2c/blob/main/docs/${{ icp: 'infchesspro', fin: 'finvara', cheg: 'cheg' }[lang]}.md`;

const $ = (id) => document.getElementById(id);
const ui = {
  example: $('example'),
  lang: $('lang'),
  run: $('run'),
  debug: $('debug'),
  continue: $('debug-continue'),
  pause: $('debug-pause'),
  stepOver: $('debug-step'),
  runToCursor: $('debug-cursor'),
  follow: $('follow'),
  stop: $('stop'),
  share: $('share'),
  shareLink: $('share-link'),
  maxSteps: $('max-steps'),
  input: $('input'),
  fen: $('fen'),
  depth: $('depth'),
  noEndgame: $('no-endgame'),
  chegOptions: $('cheg-options'),
  inputBox: $('input-box'),
  status: $('status'),
  fileName: $('file-name'),
  diagnostics: $('diagnostics'),
  stdout: $('stdout'),
  stderr: $('stderr'),
  exit: $('exit'),
  boardView: $('board-view'),
  chegView: $('cheg-view'),
  board: $('board'),
  pieces: $('pieces'),
  stacks: $('stacks'),
  stepCount: $('step-count'),
  stepTrace: $('step-trace'),
  boardOutput: $('board-output'),
  play: $('play'),
  scrub: $('scrub'),
  speed: $('speed'),
  speedShown: $('speed-shown'),
  position: $('position'),
  bestmove: $('bestmove'),
  statements: $('statements'),
  boardNote: $('board-note'),
  maxStepsError: $('max-steps-error'),
  draftBar: $('draft-bar'),
  draftNote: $('draft-note'),
  restoreDraft: $('restore-draft'),
};

// -- the program being edited -------------------------------------------

const state = {
  lang: 'icp',
  name: 'program.icp',
  replay: null,
  playing: false,
};

const language = new Compartment();
const stepLine = StateEffect.define();
const stepLineField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(stepLine)) {
        deco = e.value === null ? Decoration.none : Decoration.set([Decoration.line({ class: 'cm-step-line' }).range(e.value)]);
      }
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// -- the dark theme, following prefers-color-scheme -------------------------

const dark = window.matchMedia('(prefers-color-scheme: dark)');
const theme = new Compartment();
/** Colours for a dark background (CodeMirror's own are for a light one). */
const darkHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.controlKeyword, t.modifier], color: '#c792ea' },
  { tag: [t.string, t.special(t.string), t.character], color: '#c3e88d' },
  { tag: [t.number, t.bool, t.atom, t.null], color: '#f78c6c' },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: '#8f9bb3', fontStyle: 'italic' },
  { tag: [t.typeName, t.className, t.namespace], color: '#ffcb6b' },
  { tag: [t.labelName, t.macroName, t.processingInstruction], color: '#82aaff' },
  { tag: [t.function(t.variableName), t.propertyName], color: '#89ddff' },
  { tag: [t.operator, t.punctuation, t.bracket], color: '#cdd3de' },
  { tag: t.invalid, color: '#ff6b6b' },
]);
const darkTheme = [
  EditorView.theme(
    {
      '&': { color: '#e6e6e6', backgroundColor: '#1b1f24' },
      '.cm-content': { caretColor: '#fff' },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: '#fff' },
      '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: '#3a4a63' },
      '.cm-gutters': { backgroundColor: '#20252b', color: '#9aa4b2', borderRight: '1px solid #333a44' },
      '.cm-activeLine': { backgroundColor: '#ffffff0d' },
      '.cm-activeLineGutter': { backgroundColor: '#2a313a' },
      '.cm-foldPlaceholder': { backgroundColor: '#2a313a', color: '#cdd3de', borderColor: '#4a5563' },
      '.cm-tooltip': { backgroundColor: '#20252b', color: '#e6e6e6' },
    },
    { dark: true },
  ),
  syntaxHighlighting(darkHighlight),
];
const themeFor = (isDark) => (isDark ? darkTheme : []);
const allViews = () => [editor, ...Object.values(codeViews)];
dark.addEventListener('change', () => {
  for (const view of allViews()) view.dispatch({ effects: theme.reconfigure(themeFor(dark.matches)) });
});

/** Line highlights of one class: `set.of([[fromLine, toLine], ...])`. */
function lineMarks(className) {
  const set = StateEffect.define();
  const mark = Decoration.line({ class: className });
  const field = StateField.define({
    create: () => Decoration.none,
    update(deco, tr) {
      deco = deco.map(tr.changes);
      for (const e of tr.effects) {
        if (!e.is(set)) continue;
        const ranges = [];
        for (const [from, to] of e.value) {
          for (let n = from; n <= Math.min(to, tr.state.doc.lines); n++) ranges.push(mark.range(tr.state.doc.line(n).from));
        }
        deco = Decoration.set(ranges, true);
      }
      return deco;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
  return { set, field };
}

/** A statement and its case in the C or Rust tab: the same highlight. */
const mapped = lineMarks('cm-mapped');

// -- breakpoints: a gutter of red dots, one click (or F9) each -------------

const breakpointEffect = StateEffect.define({ map: (value, mapping) => ({ pos: mapping.mapPos(value.pos), on: value.on }) });
const breakpointMarker = new (class extends GutterMarker {
  toDOM() {
    const dot = document.createElement('span');
    dot.className = 'breakpoint';
    dot.textContent = '●';
    return dot;
  }
})();
const breakpointField = StateField.define({
  create: () => RangeSet.empty,
  update(set, tr) {
    set = set.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(breakpointEffect)) continue;
      const from = tr.state.doc.lineAt(e.value.pos).from;
      set = e.value.on ? set.update({ add: [breakpointMarker.range(from)] }) : set.update({ filter: (at) => at !== from });
    }
    return set;
  },
});

/** The lines (1-based) that hold a breakpoint. */
function breakpointLines(view = editor) {
  const lines = new Set();
  const doc = view.state.doc;
  view.state.field(breakpointField).between(0, doc.length, (from) => {
    lines.add(doc.lineAt(from).number);
  });
  return [...lines].sort((a, b) => a - b);
}

function toggleBreakpoint(view, pos) {
  const from = view.state.doc.lineAt(pos).from;
  let on = false;
  view.state.field(breakpointField).between(from, from, () => {
    on = true;
  });
  view.dispatch({ effects: breakpointEffect.of({ pos: from, on: !on }) });
  debugBreakpointsChanged();
}

const breakpointGutter = [
  breakpointField,
  gutter({
    class: 'cm-breakpoint-gutter',
    markers: (view) => view.state.field(breakpointField),
    initialSpacer: () => breakpointMarker,
    renderEmptyElements: true,
    domEventHandlers: {
      mousedown(view, line) {
        toggleBreakpoint(view, line.from);
        return true;
      },
    },
  }),
];

/** The statement a debugged run stopped on with a runtime error. */
const errorLine = lineMarks('cm-error-line');

const editor = new EditorView({
  parent: $('editor'),
  state: EditorState.create({
    doc: '',
    extensions: [
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (run(), true) }])),
      basicSetup,
      lintGutter(),
      language.of(modes.icp),
      stepLineField,
      mapped.field,
      errorLine.field,
      breakpointGutter,
      theme.of(themeFor(dark.matches)),
      EditorView.updateListener.of((update) => {
        if (update.selectionSet || update.docChanged) followCursor();
        if (update.docChanged) {
          scheduleCheck();
          if (state.replay || debug.live) forgetReplay();
          if (!replacing) edited();
        }
      }),
    ],
  }),
});

const source = () => editor.state.doc.toString();

// -- work kept: a draft per language in localStorage -----------------------
//
// What you edit (the program, its input and options) is saved as the draft
// of its language, and the last language's draft comes back on reload.
// Loading an example or a shared link shows it without saving it: if it
// hides a saved draft, that draft is kept aside (one a language) and
// "Restore my draft" brings it back (the program it replaces is kept aside
// in its turn, so nothing is lost). Your edits of an example or a link are
// then saved as your draft.

const KEY = 'icp2c.playground.';
const draftKey = (lang) => `${KEY}draft.${lang}`;
const asideKey = (lang) => `${KEY}aside.${lang}`;
/** True while the page, not you, replaces the program. */
let replacing = false;
let saveTimer = null;

function readStored(key) {
  try {
    const data = JSON.parse(localStorage.getItem(key) || 'null');
    return data && typeof data.source === 'string' && EXTENSIONS[data.lang] ? data : null;
  } catch {
    return null;
  }
}

function writeStored(key, data) {
  try {
    if (data) localStorage.setItem(key, JSON.stringify(data));
    else localStorage.removeItem(key);
  } catch {
    // Storage full or refused (a private window): the page works on.
  }
}

/** The program, its input and options as they are now. */
function current() {
  return {
    lang: state.lang,
    name: state.name,
    source: source(),
    input: ui.input.value,
    maxSteps: ui.maxSteps.value,
    fen: ui.fen.value,
    depth: ui.depth.value,
    noEndgame: ui.noEndgame.checked,
  };
}

/** You changed the program or an option: save it (soon) as your draft. */
function edited() {
  // A link no longer describes what you edit.
  if (location.hash.startsWith('#p=')) history.replaceState(null, '', location.href.split('#')[0]);
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveDraft, 300);
}

function saveDraft() {
  clearTimeout(saveTimer);
  saveTimer = null;
  writeStored(draftKey(state.lang), current());
  try {
    localStorage.setItem(`${KEY}lang`, state.lang);
  } catch {}
}

/** Shows `data` (a draft, an example or a link's program). */
function show(data) {
  ui.input.value = data.input || '';
  if ('maxSteps' in data) ui.maxSteps.value = data.maxSteps || '';
  ui.fen.value = data.fen || '';
  ui.depth.value = data.depth || String(DEFAULT_DEPTH);
  ui.noEndgame.checked = !!data.noEndgame;
  setSource(String(data.source || ''), data.lang, String(data.name || `program.${data.lang}`));
}

/** About to show something that is not your draft: a saved draft it would
 * hide is kept aside, and the bar offers it back. */
function keepDraftAside(lang, incoming) {
  if (saveTimer) saveDraft();
  const draft = readStored(draftKey(lang));
  if (draft && draft.source !== incoming.source) writeStored(asideKey(lang), draft);
  showDraftBar(lang);
}

function showDraftBar(lang) {
  const aside = readStored(asideKey(lang));
  ui.draftBar.hidden = !aside;
  if (aside) ui.draftNote.textContent = `Your draft ${aside.name} (${aside.source.split('\n').length} lines) is kept.`;
}

/** "Restore my draft": the kept draft comes back, as your draft; what it
 * replaces is kept aside in its place. */
function restoreDraft() {
  const aside = readStored(asideKey(state.lang));
  if (!aside) return;
  const now = current();
  writeStored(asideKey(state.lang), now.source !== aside.source ? now : null);
  show(aside);
  saveDraft();
  showDraftBar(state.lang);
}

function forgetAside() {
  writeStored(asideKey(state.lang), null);
  showDraftBar(state.lang);
}

function setSource(text, lang, name) {
  // Another program: the old one's run ends, and nothing it sends shows.
  runToken++;
  cancelRun('superseded');
  state.lang = lang;
  state.name = name || `program.${lang}`;
  ui.lang.value = lang;
  const doc = $('lang-doc');
  doc.href = REFERENCE(lang);
  doc.textContent = `${EXTENSIONS[lang]} reference`;
  const example = state.name.startsWith('examples/') ? state.name.slice('examples/'.length) : '';
  ui.example.value = examples.some((e) => e.file === example) ? example : '';
  ui.fileName.textContent = state.name;
  replacing = true;
  try {
    editor.dispatch({
      changes: { from: 0, to: editor.state.doc.length, insert: text },
      effects: [language.reconfigure(modes[lang]), stepLine.of(null)],
    });
  } finally {
    replacing = false;
  }
  ui.chegOptions.hidden = lang !== 'cheg';
  ui.inputBox.hidden = lang === 'cheg';
  ui.maxSteps.parentElement.hidden = lang === 'cheg';
  forgetReplay();
  clearResults();
  checkMaxSteps();
  checkNow();
  if (lang === 'cheg' && icp) showPosition(null);
  showTab(activeTab);
}

function loadExample(file) {
  const ex = examples.find((e) => e.file === file);
  if (!ex) return;
  keepDraftAside(ex.lang, ex);
  show({ lang: ex.lang, name: `examples/${ex.file}`, source: ex.source, input: ex.input, fen: ex.fen, depth: ex.depth && String(ex.depth) });
}

// -- the library: on the page for quick answers, in a worker for runs ----

let module = null;
let icp = null;
let worker = null;
/** The request in the worker: {id, resolve, reject, onChunk}, or null. */
let pending = null;
let nextId = 1;

function startWorker() {
  worker = new Worker('worker.js', { type: 'module' });
  worker.onmessage = (event) => {
    const m = event.data;
    // Anything about a request the page has given up on is ignored.
    if (m.ready) return;
    if (debug.live && m.id === debug.id) return debugMessage(m);
    if (!pending || m.id !== pending.id) return;
    if (m.chunk) {
      pending.onChunk?.(m.chunk);
      return;
    }
    if (m.errors) {
      pending.onErrors?.(m.errors);
      return;
    }
    const { resolve, reject } = pending;
    pending = null;
    if (m.error) {
      // A trap leaves the instance unusable: start afresh.
      worker.terminate();
      startWorker();
      reject(new Error(m.error));
    } else resolve({ result: m.result, ms: m.ms });
  };
  worker.onerror = (event) => {
    if (pending) {
      pending.reject(new Error(event.message || 'the worker failed'));
      pending = null;
    }
  };
  worker.postMessage({ module });
}

/** Runs `op` in the worker, `onChunk(bytes)` getting its standard output
 * as it comes and `onErrors(bytes)` its standard error; a request still
 * in flight is ended first (one run at a time). Stop, and anything that
 * replaces the program, rejects it. */
function inWorker(op, fields, onChunk, onErrors) {
  cancelRun('superseded');
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending = { id, resolve, reject, onChunk, onErrors };
    worker.postMessage({ id, op, fields });
  });
}

/** Ends the run in flight, if any, by ending its worker (a program that
 * loops holds up nothing): its promise is rejected with `why`. */
function cancelRun(why) {
  if (!pending) return false;
  worker.terminate();
  const { reject } = pending;
  pending = null;
  startWorker();
  reject(new Error(why));
  return true;
}

/** Counts the page's runs: a run's answer is shown only while it is the
 * latest (a new program, Run or Debug makes it stale). */
let runToken = 0;

function stop() {
  if (debug.live) return stopDebugging();
  cancelRun('stopped');
}

function setStatus(kind, text) {
  ui.status.dataset.state = kind;
  ui.status.textContent = text;
  const busy = kind === 'running';
  ui.run.disabled = busy;
  ui.debug.disabled = busy;
  for (const id of ['cheg-continue', 'cheg-step', 'cheg-cursor']) $(id).disabled = busy;
  ui.stop.disabled = !busy && !(debug.live && kind === 'paused');
  ui.continue.disabled = busy;
  ui.stepOver.disabled = busy;
  ui.runToCursor.disabled = busy;
  ui.pause.disabled = !(busy && debug.live);
}

// -- diagnostics -----------------------------------------------------------

let checkTimer = null;
let lastCheck = null;

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkNow, 250);
}

/** Checks the program on the page (fast), shows its diagnostics in the
 * editor and in the list; returns the answer. */
function checkNow() {
  clearTimeout(checkTimer);
  if (!icp) return null;
  const answer = icp.call(Op.check, [state.lang, state.name, source()]);
  lastCheck = answer;
  const length = editor.state.doc.length;
  const diagnostics = answer.diagnostics.map((d) => {
    const from = Math.min(d.from, length);
    let to = Math.min(Math.max(d.to, from), length);
    if (to === from && to < length && editor.state.doc.lineAt(from).to > from) to = from + 1;
    return { from, to, severity: d.severity, message: d.message, source: 'icp2c' };
  });
  editor.dispatch(setDiagnostics(editor.state, diagnostics));
  ui.diagnostics.replaceChildren();
  for (const d of answer.diagnostics) {
    const item = document.createElement('li');
    item.className = d.severity;
    item.dataset.line = String(d.line);
    item.dataset.col = String(d.col);
    const head = document.createElement('button');
    head.className = 'goto';
    head.textContent = `${state.name}:${d.line}:${d.col}: ${d.severity}: ${d.message}`;
    head.onclick = () => {
      const at = Math.min(d.from, editor.state.doc.length);
      editor.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      editor.focus();
    };
    const text = document.createElement('pre');
    text.textContent = d.text;
    item.append(head, text);
    ui.diagnostics.append(item);
  }
  ui.diagnostics.dataset.errors = String(answer.errors);
  refreshCode();
  return answer;
}

// -- running ---------------------------------------------------------------

const stdoutView = new OutputView(ui.stdout, () => `${stem()}.out`);

function clearResults() {
  stdoutView.reset();
  ui.stderr.textContent = '';
  ui.exit.textContent = '';
  showStatements('');
  ui.bestmove.textContent = '';
  setStatus('idle', 'Ready.');
}

function showResult(result, ms) {
  if (typeof result.stdout === 'string') stdoutView.setText(result.stdout);
  else stdoutView.end();
  ui.stderr.textContent = result.stderr;
  ui.exit.textContent = `exit status ${result.status}`;
  ui.exit.dataset.status = String(result.status);
  setStatus('done', `Finished in ${Math.round(ms)} ms, exit status ${result.status}.`);
}

/** The checked program, or null after showing why it was rejected. */
function checkedOrShown() {
  const answer = checkNow();
  if (answer && answer.ok) return answer;
  clearResults();
  ui.stderr.textContent = answer ? answer.rendered : '';
  ui.exit.textContent = 'exit status 2';
  ui.exit.dataset.status = '2';
  showTab('output');
  setStatus('error', 'The program was rejected: see the diagnostics.');
  return null;
}

const U64_MAX = 18446744073709551615n;

/** Why *Max steps* is refused, or null: it is empty (no limit) or a whole
 * number of steps (digits, grouped with `_`, `,` or spaces if you like),
 * 0 to 2^64 - 1 as `--max-steps` takes. */
function maxStepsProblem() {
  const raw = ui.maxSteps.value.trim();
  const text = raw.replace(/[_,\s]/g, '');
  if (text === '') return null;
  if (!/^\d+$/.test(text)) {
    if (/^[-−]/.test(text)) return `Max steps cannot be negative (“${raw}”): give a whole number of steps, or leave it empty for no limit.`;
    if (/^[\d.]+(e[+-]?\d+)?$/i.test(text)) return `Max steps must be written out in digits (“${raw}”): no decimals or exponents, such as 1000.`;
    return `Max steps must be a whole number of steps (“${raw}” is not), or empty for no limit.`;
  }
  if (BigInt(text) > U64_MAX) return `Max steps can be at most ${U64_MAX.toLocaleString('en')} (empty: no limit).`;
  return null;
}

/** Shows whether *Max steps* is valid; returns its problem or null. */
function checkMaxSteps() {
  const problem = state.lang === 'cheg' ? null : maxStepsProblem();
  ui.maxStepsError.textContent = problem || '';
  ui.maxStepsError.hidden = !problem;
  ui.maxSteps.setAttribute('aria-invalid', String(!!problem));
  return problem;
}

/** *Max steps* as digits ('' for no limit), or null after saying why it
 * is refused. */
function maxSteps() {
  const problem = checkMaxSteps();
  if (problem) {
    setStatus('error', problem);
    ui.maxSteps.focus();
    return null;
  }
  return ui.maxSteps.value.trim().replace(/[_,\s]/g, '');
}

function chegArgs() {
  const args = ['--fen', ui.fen.value.trim()];
  const depth = ui.depth.value.trim();
  if (depth) args.push('--depth', depth);
  if (ui.noEndgame.checked) args.push('--no-endgame');
  return args.join('\n');
}

async function run() {
  const token = ++runToken;
  cancelRun('superseded');
  endDebugging();
  const steps = maxSteps();
  if (steps === null) return;
  if (!checkedOrShown()) return;
  stopPlaying();
  clearResults();
  setStatus('running', 'Running…');
  const cheg = state.lang === 'cheg';
  if (cheg) showPosition(null);
  else showTab('output');
  const fields = cheg
    ? [state.lang, state.name, source(), '', '', chegArgs(), '1']
    : [state.lang, state.name, source(), ui.input.value, steps, '', ''];
  const started = performance.now();
  try {
    const errors = new TextDecoder();
    const { result, ms } = await inWorker(
      Op.run,
      fields,
      (bytes) => token === runToken && stdoutView.append(bytes),
      (bytes) => token === runToken && ui.stderr.append(errors.decode(bytes, { stream: true })),
    );
    if (token !== runToken) return;
    showResult(result, ms);
    if (cheg) {
      const stdout = stdoutView.text();
      showStatements(result.stderr);
      const best = /^bestmove (\S+) score (\S+)/m.exec(stdout);
      ui.bestmove.textContent = best ? `Best move ${best[1]}, score ${best[2]} (depth ${ui.depth.value || DEFAULT_DEPTH})` : stdout.trim();
      showPosition(best ? best[1] : null);
    }
  } catch (error) {
    if (token === runToken) failed(error, performance.now() - started);
  }
}

function failed(error, ms) {
  if (error.message === 'superseded') return;
  if (error.message === 'stopped') {
    stdoutView.end();
    const shown = stdoutView.bytes;
    const kept = shown ? ` (the output above is the ${shown.toLocaleString('en')} bytes it printed until then)` : '';
    ui.exit.textContent = `stopped by you after ${Math.round(ms)} ms: no exit status${kept}`;
    ui.exit.dataset.status = 'stopped';
    setStatus('stopped', 'Stopped.');
  } else setStatus('error', `Internal error: ${error.message}`);
}

function showPosition(best) {
  drawPosition(ui.position, icp.call(Op.position, [ui.fen.value.trim()]), best);
}

// -- the debugger --------------------------------------------------------------
//
// Debug (F5) runs the program in the worker a statement (Finvara: a move)
// at a time, as `icp2c run --trace` runs it (not optimised, so every step
// is a statement as written), until a breakpoint, Pause (F8) or its end;
// Step (F10) runs one step, Step back (Shift+F10) goes back through the
// last DEBUG_HISTORY steps, Run to cursor (Ctrl+F10) runs to the cursor's
// line, Escape stops. The board view shows the steps the run sent at its
// last stop (web/wasm `advance`), and the editor the statement that runs
// next.

const debug = {
  /** A run lives in the worker (started, not stopped or superseded). */
  live: false,
  id: null,
  /** 'running', 'paused' or 'ended'. */
  status: 'ended',
  /** Steps run, and the line of the statement that runs next (or null). */
  ran: 0,
  next: null,
  /** Why it last stopped: 'breakpoint', 'slice' (a pause or a step) or 'ended'. */
  pause: null,
  started: 0,
  /** Called once the run has started (then Continue, Step…). */
  onStarted: null,
};

/** Starts a debugged run of the program, before its first statement, in a
 * fresh worker (a session keeps its program until its worker ends); then
 * `then()`. */
function startDebugging(then) {
  const token = ++runToken;
  cancelRun('superseded');
  endDebugging();
  if (state.lang === 'cheg') return;
  if (!checkedOrShown()) return;
  stopPlaying();
  forgetReplay();
  clearResults();
  worker.terminate();
  startWorker();
  Object.assign(debug, { live: true, id: nextId++, status: 'running', ran: 0, next: null, pause: null, started: performance.now(), token });
  debug.onStarted = then;
  setStatus('running', 'Starting the debugger…');
  showTab('board');
  worker.postMessage({ debug: 'start', id: debug.id, fields: [state.lang, state.name, source(), ui.input.value, String(DEBUG_HISTORY)] });
}

/** Forgets the debugged run: nothing it sends shows any more. */
function endDebugging() {
  if (!debug.live) return;
  debug.live = false;
  if (debug.status === 'running') {
    // It may be mid-slice: its worker ends with it.
    worker.terminate();
    startWorker();
  }
  debug.status = 'ended';
  debug.next = null;
}

/** Stop (Escape): ends the debugged run where it is, keeping what it printed. */
function stopDebugging() {
  if (!debug.live) return;
  endDebugging();
  stdoutView.end();
  ui.exit.textContent = `stopped by you after ${debug.ran.toLocaleString('en')} steps: no exit status`;
  ui.exit.dataset.status = 'stopped';
  setStatus('stopped', 'Stopped.');
  renderStep();
}

function debugMessage(m) {
  if (m.chunk) {
    stdoutView.append(m.chunk);
    return;
  }
  if (m.error) {
    endDebugging();
    worker.terminate();
    startWorker();
    setStatus('error', `Internal error: ${m.error}`);
    return;
  }
  if (m.debug === 'started') {
    const a = m.answer;
    if (!a.ok) {
      endDebugging();
      setStatus('error', a.error || a.stderr);
      return;
    }
    state.replay = new Replay({ width: a.width, height: a.height, start: a.start, steps: [], contents: a.contents, end: null, stdout: '' }, state.lang, (end) => stdoutView.slice(Math.max(0, end - 4096), end));
    Object.assign(debug, { status: 'paused', next: a.next, ran: 0 });
    ui.boardNote.textContent = '';
    const then = debug.onStarted;
    debug.onStarted = null;
    if (then) then();
    else paused();
    return;
  }
  if (m.debug === 'progress') {
    debug.ran = m.ran;
    setStatus('running', `Debugging: running… ${m.ran.toLocaleString('en')} steps (F8 pauses).`);
    return;
  }
  if (m.debug === 'stopped') {
    const a = m.answer;
    state.replay.extend(a, DEBUG_HISTORY);
    Object.assign(debug, { ran: a.ran, next: a.next, pause: a.pause });
    if (a.end) state.replay.rec.end = a.end;
    if (a.pause === 'ended') return ended(a);
    debug.status = 'paused';
    paused();
  }
}

/** Shows where a paused run is. */
function paused() {
  const why = debug.pause === 'breakpoint' ? 'at a breakpoint on' : 'before';
  const line = debug.next === null ? 'the end' : `line ${debug.next}`;
  setStatus('paused', `Paused ${why} ${line} after ${debug.ran.toLocaleString('en')} steps: F5 continues, F10 steps, Shift+F10 steps back, Escape stops.`);
  renderStep();
}

function ended(a) {
  debug.status = 'ended';
  debug.live = false;
  stdoutView.end();
  ui.stderr.textContent = a.stderr;
  ui.exit.textContent = `exit status ${a.status}`;
  ui.exit.dataset.status = String(a.status);
  const ms = performance.now() - debug.started;
  setStatus('done', `Finished after ${a.ran.toLocaleString('en')} steps in ${Math.round(ms)} ms, exit status ${a.status}.`);
  if (a.error_line) {
    const line = Math.min(a.error_line, editor.state.doc.lines);
    editor.dispatch({ effects: [errorLine.set.of([[line, line]]), EditorView.scrollIntoView(editor.state.doc.line(line).from, { y: 'center' })] });
    ui.boardNote.textContent = `Runtime error on line ${a.error_line}: ${a.stderr.trim().replace(/^error: /, '')}`;
  } else {
    const kept = state.replay.first > 0 ? ` (the last ${state.replay.length.toLocaleString('en')} kept for stepping back)` : '';
    ui.boardNote.textContent = `${a.ran.toLocaleString('en')} steps${kept}.`;
  }
  renderStep();
}

/** Runs the debugged run on: `most` steps at most (all when omitted),
 * stopping at the breakpoints and `also` (a line: Run to cursor). */
function go({ most, also } = {}) {
  if (!debug.live || debug.status !== 'paused') return;
  stopPlaying();
  const lines = breakpointLines();
  if (also) lines.push(also);
  debug.status = 'running';
  // A Continue or Step from where it stopped leaves that statement, even
  // when it holds a breakpoint; a run's first statement does not.
  const leave = debug.ran > 0 || debug.pause !== null;
  setStatus('running', most === 1 ? 'Debugging: one step…' : 'Debugging: running… (F8 pauses)');
  worker.postMessage({ debug: 'go', id: debug.id, breakpoints: lines.join(','), leave, most, from: debug.ran });
}

// CHEG's debugger: a search runs to its end (the browser has no threads
// to pause it), so Debug runs the query with --trace and then steps through
// the statements the program ran at the root, as the trace lists them
// (`root N: …`): Continue to the next on a breakpoint's line, Step, Step
// back, Run to cursor, each highlighted in the editor and in the list.

/** The root statements of the last CHEG run: [{line, element}], and the
 * one shown (-1: none yet). */
const cheg = { steps: [], at: -1 };

/** Shows a CHEG run's standard error, each root statement a line of its own. */
function showStatements(text) {
  ui.statements.replaceChildren();
  cheg.query = null;
  cheg.steps = [];
  cheg.at = -1;
  for (const line of text.split(/(?<=\n)/)) {
    const span = document.createElement('span');
    span.textContent = line;
    const root = /^root (\d+): /.exec(line);
    if (root) {
      span.className = 'root-statement';
      span.dataset.step = String(cheg.steps.length);
      cheg.steps.push({ line: Number(root[1]), element: span });
    }
    ui.statements.append(span);
  }
}

/** Shows root statement `i` (clamped), or none for -1. */
function chegStepTo(i) {
  cheg.steps[cheg.at]?.element.classList.remove('current');
  cheg.at = Math.max(-1, Math.min(cheg.steps.length - 1, i));
  const step = cheg.steps[cheg.at];
  if (!step) {
    editor.dispatch({ effects: stepLine.of(null) });
    return;
  }
  step.element.classList.add('current');
  step.element.scrollIntoView({ block: 'nearest' });
  const line = editor.state.doc.line(Math.min(step.line, editor.state.doc.lines));
  editor.dispatch({ effects: [stepLine.of(line.from), EditorView.scrollIntoView(line.from, { y: 'nearest' })] });
  const hit = breakpointLines().includes(step.line) ? ' (a breakpoint)' : '';
  setStatus('paused', `Root statement ${cheg.at + 1} of ${cheg.steps.length}: line ${step.line}${hit}. F5 continues, F10 steps, Shift+F10 steps back.`);
}

/** The next root statement after the one shown on one of `lines`, or the last. */
function chegNext(lines) {
  for (let i = cheg.at + 1; i < cheg.steps.length; i++) if (lines.includes(cheg.steps[i].line)) return i;
  return cheg.steps.length - 1;
}

/** Runs the query if its statements are not listed yet, then `then()`. */
async function chegDebug(then) {
  const query = `${source()}\n${chegArgs()}`;
  if (cheg.query !== query) {
    await run();
    cheg.query = query;
    showTab('board');
  }
  if (cheg.steps.length === 0) {
    setStatus('done', 'The program ran no statement at the root of this search.');
    return;
  }
  then();
}

/** Debug / Continue (F5). */
function continueDebugging() {
  if (state.lang === 'cheg') return chegDebug(() => chegStepTo(chegNext(breakpointLines())));
  if (!debug.live) return startDebugging(() => go());
  if (state.replay) stepTo(state.replay.length);
  go();
}

/** Pause (F8): pauses a running run; continues a paused one. */
function pauseDebugging() {
  if (!debug.live) return;
  if (debug.status === 'running') worker.postMessage({ debug: 'pause' });
  else continueDebugging();
}

/** Step (F10): the next step, from the history when stepped back. */
function stepDebugging() {
  if (state.lang === 'cheg') return chegDebug(() => chegStepTo(cheg.at + 1));
  if (!debug.live) {
    if (state.replay && state.replay.at < state.replay.length) return stepTo(state.replay.at + 1);
    return startDebugging(() => go({ most: 1 }));
  }
  if (state.replay && state.replay.at < state.replay.length) return stepTo(state.replay.at + 1);
  go({ most: 1 });
}

/** Step back (Shift+F10). */
function stepBack() {
  if (state.lang === 'cheg') return chegStepTo(cheg.at - 1);
  stopPlaying();
  stepTo((state.replay?.at ?? 0) - 1);
}

/** Run to cursor (Ctrl+F10). */
function runToCursor() {
  const line = editor.state.doc.lineAt(editor.state.selection.main.head).number;
  if (state.lang === 'cheg') return chegDebug(() => chegStepTo(chegNext([line])));
  if (!debug.live) return startDebugging(() => go({ also: line }));
  if (state.replay) stepTo(state.replay.length);
  go({ also: line });
}

function debugBreakpointsChanged() {
  if (debug.live && debug.status === 'running') worker.postMessage({ debug: 'breakpoints', breakpoints: breakpointLines().join(',') });
}

/** Debug with no breakpoint, to the end (for the tests and the
 * benchmark); resolves when the run has ended. */
function debugToEnd() {
  return new Promise((resolve) => {
    const token = runToken + 1;
    startDebugging(() => go());
    const wait = () => (runToken !== token || (!debug.live && debug.status === 'ended') ? resolve() : setTimeout(wait, 20));
    wait();
  });
}

function forgetReplay() {
  endDebugging();
  editor.dispatch({ effects: errorLine.set.of([]) });
  stopPlaying();
  state.replay = null;
  ui.board.replaceChildren();
  ui.pieces.replaceChildren();
  ui.stacks.replaceChildren();
  ui.stepCount.textContent = '';
  ui.scrub.max = '0';
  ui.stepTrace.textContent = '';
  ui.boardOutput.textContent = '';
  ui.boardNote.textContent = state.lang === 'cheg' ? '' : NO_RUN;
}

const NO_RUN = 'Press Debug (F5) to run the program statement by statement, or Step (F10) to start at its first; click the gutter (or F9) for a breakpoint.';

// -- the board view ----------------------------------------------------------

function renderStep() {
  const replay = state.replay;
  if (!replay) return;
  drawReplay(ui, replay);
  const first = replay.first;
  ui.stepCount.textContent = `${(first + replay.at).toLocaleString('en')} / ${(first + replay.length).toLocaleString('en')}`;
  ui.scrub.max = String(replay.length);
  ui.scrub.value = String(replay.at);
  ui.stepCount.dataset.at = String(first + replay.at);
  const step = replay.step;
  let trace = step ? step[1] : first > 0 ? `The oldest step kept (${first.toLocaleString('en')} ran before it).` : 'The start: no statement has run yet.';
  if (replay.at === replay.length && replay.rec.end) trace += `\n${replay.rec.end}`;
  ui.stepTrace.textContent = trace;
  ui.boardOutput.textContent = replay.outputSoFar;
  // The statement that runs next, as debuggers show it; at the end of a
  // finished run, the last one that ran.
  const nextLine = replay.at < replay.length ? replay.rec.steps[replay.at][0] : debug.live ? debug.next : step ? step[0] : null;
  ui.stepTrace.dataset.next = nextLine === null ? '' : String(nextLine);
  if (nextLine !== null) {
    const line = editor.state.doc.line(Math.min(nextLine, editor.state.doc.lines));
    editor.dispatch({ effects: [stepLine.of(line.from), EditorView.scrollIntoView(line.from, { y: 'nearest' })] });
  } else {
    editor.dispatch({ effects: stepLine.of(null) });
  }
  // The board follows the squares the last step changed.
  if (ui.follow.checked) ui.board.querySelector('.changed')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function stepTo(n) {
  if (!state.replay) return;
  state.replay.seek(n);
  renderStep();
}

/** Steps a second, from the speed slider (a logarithmic scale, 1 to 10,000). */
const speed = () => Math.round(10 ** (Number(ui.speed.value) / 25));

let lastFrame = 0;
let owed = 0;

function frame(now) {
  if (!state.playing || !state.replay) return;
  owed += ((now - lastFrame) / 1000) * speed();
  lastFrame = now;
  const whole = Math.floor(owed);
  if (whole > 0) {
    owed -= whole;
    state.replay.seek(state.replay.at + whole);
    renderStep();
    if (state.replay.at >= state.replay.length) {
      stopPlaying();
      return;
    }
  }
  requestAnimationFrame(frame);
}

function startPlaying() {
  if (!state.replay) return;
  if (state.replay.at >= state.replay.length) stepTo(0);
  state.playing = true;
  ui.play.textContent = '❚❚ Pause';
  lastFrame = performance.now();
  owed = 1;
  requestAnimationFrame(frame);
}

function stopPlaying() {
  state.playing = false;
  ui.play.textContent = '▶ Play';
}

// -- generated code ----------------------------------------------------------

/** The runtime, folded: a placeholder saying what is hidden (one click
 * unfolds it). */
const runtimeFolding = codeFolding({
  preparePlaceholder: (state, range) => state.doc.lineAt(range.to).number - state.doc.lineAt(range.from).number + 1,
  placeholderDOM(view, onclick, lines) {
    const button = document.createElement('button');
    button.className = 'cm-foldPlaceholder runtime-fold';
    button.textContent = `⋯ the runtime: ${lines.toLocaleString('en')} lines, the same in every program (click to unfold) ⋯`;
    button.title = 'Unfold the runtime';
    button.onclick = onclick;
    return button;
  },
});

const codeViews = {};
/** Each tab's map (codemap.js): runtime, program start, cases. */
const codeMaps = {};
for (const target of ['c', 'rust']) {
  codeViews[target] = new EditorView({
    parent: $(`${target}-view`),
    state: EditorState.create({
      doc: '',
      extensions: [
        basicSetup,
        runtimeFolding,
        EditorState.readOnly.of(true),
        EditorView.editable.of(false),
        target === 'c' ? cpp() : rust(),
        mapped.field,
        theme.of(themeFor(dark.matches)),
      ],
    }),
  });
}

// -- the map between the program and the generated code ---------------------

/** The source line under the pointer in the editor, or null. */
let hoverSource = null;
/** The generated line under the pointer in the C or Rust view, or null. */
let hoverCode = null;

/** The cases of source line `line` in the visible tab. */
const casesOf = (map, line) => (map ? map.cases.filter((c) => c.line === line) : []);

/** Highlights a statement and its case(s) alike: the source line from the
 * pointer over the editor, or over a case, or else the cursor's line.
 * `scroll`: false, 'case' (to the case, if any) or 'start' (to the case,
 * or else to the program's own code). */
function showMapped(scroll) {
  const target = activeTab === 'c' || activeTab === 'rust' ? activeTab : null;
  const map = target && codeMaps[target];
  let line = null;
  let cases = [];
  if (map && hoverCode !== null) {
    const c = map.cases.find((k) => k.from <= hoverCode && hoverCode <= k.to);
    if (c) line = c.line;
  }
  if (line === null && hoverSource !== null) line = hoverSource;
  if (line === null) line = editor.state.doc.lineAt(editor.state.selection.main.head).number;
  cases = casesOf(map, line);
  const view = target && codeViews[target];
  editor.dispatch({ effects: mapped.set.of(cases.length ? [[line, line]] : []) });
  if (!view) return;
  const effects = [mapped.set.of(cases.map((c) => [c.from, c.to]))];
  const doc = view.state.doc;
  if (scroll && cases.length && hoverCode === null) {
    effects.push(EditorView.scrollIntoView(doc.line(Math.min(cases[0].from, doc.lines)).from, { y: 'center' }));
  } else if (scroll === 'start' && map) {
    effects.push(EditorView.scrollIntoView(doc.line(Math.min(map.start, doc.lines)).from, { y: 'start' }));
  }
  view.dispatch({ effects });
  view.dom.dataset.mapped = cases.map((c) => c.marker).join(' ');
}

/** The cursor moved or the program changed: its case follows it. */
function followCursor() {
  if (activeTab === 'c' || activeTab === 'rust') showMapped('case');
}

function lineAtPointer(view, event) {
  const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
  return pos === null ? null : view.state.doc.lineAt(pos).number;
}

editor.contentDOM.addEventListener('mousemove', (event) => {
  const line = lineAtPointer(editor, event);
  if (line === hoverSource) return;
  hoverSource = line;
  showMapped(false);
});
editor.contentDOM.addEventListener('mouseleave', () => {
  hoverSource = null;
  showMapped(false);
});
for (const target of ['c', 'rust']) {
  const view = codeViews[target];
  view.contentDOM.addEventListener('mousemove', (event) => {
    const line = lineAtPointer(view, event);
    if (line === hoverCode) return;
    hoverCode = line;
    showMapped(false);
  });
  view.contentDOM.addEventListener('mouseleave', () => {
    hoverCode = null;
    showMapped(false);
  });
}

/** A new text in a code view: the runtime folded, the view scrolled to
 * the program's own code. */
function mapCode(target, text, ok) {
  const view = codeViews[target];
  const map = ok ? codeMap(text, target, state.lang, source()) : null;
  codeMaps[target] = map;
  const effects = [];
  if (map) {
    for (const [from, to] of map.runtime) {
      if (to > view.state.doc.lines) continue;
      effects.push(foldEffect.of({ from: view.state.doc.line(from).from, to: view.state.doc.line(to).to }));
    }
    view.dom.dataset.start = String(map.start);
  }
  view.dispatch({ effects });
  // Coloured at once: the program's code is past thousands of lines.
  forceParsing(view, view.state.doc.length, 150);
}

let activeTab = 'output';

function stem() {
  const base = state.name.split('/').pop();
  return base.replace(/\.[^.]*$/, '') || 'program';
}

/** Generates the visible tab's code (C or Rust) for the program. */
function refreshCode(shown = false) {
  if (activeTab !== 'c' && activeTab !== 'rust') return;
  const target = activeTab;
  const answer = icp.call(Op.emit, [state.lang, state.name, source(), target]);
  const text = answer.ok ? answer.text : answer.error;
  const view = codeViews[target];
  if (view.state.doc.toString() !== text) {
    unfoldAll(view);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    mapCode(target, text, answer.ok);
    showMapped('start');
  } else showMapped(shown ? 'start' : false);
  const link = $(`${target}-download`);
  if (link.href) URL.revokeObjectURL(link.href);
  if (answer.ok) {
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = `${stem()}.${target === 'c' ? 'c' : 'rs'}`;
    link.textContent = `Download ${link.download}`;
    link.hidden = false;
  } else {
    link.removeAttribute('href');
    link.hidden = true;
  }
  $(`${target}-view`).dataset.ok = String(answer.ok);
}

function showTab(name) {
  activeTab = name;
  for (const button of document.querySelectorAll('[data-tab]')) {
    const on = button.dataset.tab === name;
    button.setAttribute('aria-selected', String(on));
    $(`tab-${button.dataset.tab}`).hidden = !on;
  }
  ui.boardView.hidden = state.lang === 'cheg';
  ui.chegView.hidden = state.lang !== 'cheg';
  refreshCode(true);
}

// -- shareable links -----------------------------------------------------------

const toBase64Url = (bytes) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromBase64Url = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

async function squeeze(bytes, how) {
  const stream = new Blob([bytes]).stream().pipeThrough(how === 'compress' ? new CompressionStream('deflate-raw') : new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The link: `#p=` and the program, its name, input and CHEG query as
 * deflated JSON in base64url. */
async function shareLink() {
  const data = { lang: state.lang, name: state.name, source: source(), input: ui.input.value };
  if (state.lang === 'cheg') Object.assign(data, { fen: ui.fen.value, depth: ui.depth.value, noEndgame: ui.noEndgame.checked });
  const packed = await squeeze(new TextEncoder().encode(JSON.stringify(data)), 'compress');
  const url = `${location.href.split('#')[0]}#p=${toBase64Url(packed)}`;
  history.replaceState(null, '', url);
  ui.shareLink.value = url;
  ui.shareLink.hidden = false;
  ui.shareLink.select();
  try {
    await navigator.clipboard.writeText(url);
    setStatus(ui.status.dataset.state === 'running' ? 'running' : 'idle', 'Link copied: it carries the program.');
  } catch {
    setStatus('idle', 'Copy the link beside the button: it carries the program.');
  }
}

/** Why a link's program could not be read, in words. */
class LinkError extends Error {}

/** The program a `#p=` link carries; a LinkError says why it cannot. */
async function readLink(packed) {
  let bytes;
  try {
    bytes = fromBase64Url(packed);
  } catch {
    throw new LinkError('its text is not what the Share button writes (a character was changed or added)');
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await squeeze(bytes, 'decompress'));
  } catch {
    // A deflate stream that ends early or holds garbage: the browser only
    // says "Failed to fetch".
    throw new LinkError('it is damaged or cut short (perhaps not copied whole): its compressed program does not unpack');
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new LinkError('it unpacks, but not to a program the Share button wrote');
  }
  if (!data || typeof data !== 'object' || typeof data.source !== 'string') throw new LinkError('it carries no program');
  if (!EXTENSIONS[data.lang]) throw new LinkError(`it names a language the page does not know (${JSON.stringify(String(data.lang))})`);
  return data;
}

/** Shows the program of the page's `#p=` link, as a copy: your saved draft
 * is kept (Restore my draft brings it back). False when there is no link,
 * or after saying why it could not be read. */
async function loadFromLink() {
  if (!location.hash.startsWith('#p=')) return false;
  const m = /^#p=([A-Za-z0-9_-]*)$/.exec(location.hash);
  try {
    if (!m || !m[1]) throw new LinkError('its text is not what the Share button writes (a character was changed or added)');
    const data = await readLink(m[1]);
    const copy = {
      lang: data.lang,
      name: String(data.name || `program.${data.lang}`),
      source: data.source,
      input: String(data.input || ''),
      fen: String(data.fen || ''),
      depth: String(data.depth || DEFAULT_DEPTH),
      noEndgame: !!data.noEndgame,
    };
    keepDraftAside(copy.lang, copy);
    show(copy);
    setStatus('idle', 'A shared program (a copy: your own draft is kept).');
    return true;
  } catch (error) {
    const why = error instanceof LinkError ? error.message : `an unexpected error: ${error.message}`;
    setStatus('error', `This link's program could not be read: ${why}. Ask for the link again.`);
    return false;
  }
}

// -- resizable panes -------------------------------------------------------------

/** Gives the editor's pane `percent` of the width (20 to 80). */
function splitAt(percent) {
  const p = Math.min(80, Math.max(20, Math.round(percent)));
  $('left').style.flexBasis = `${p}%`;
  $('right').style.flexBasis = `${100 - p}%`;
  $('splitter').setAttribute('aria-valuenow', String(p));
  for (const view of allViews()) view.requestMeasure();
}

function wireSplitter() {
  const handle = $('splitter');
  const main = handle.parentElement;
  handle.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    handle.classList.add('dragging');
    const move = (e) => {
      const box = main.getBoundingClientRect();
      splitAt(((e.clientX - box.left) / box.width) * 100);
    };
    const up = () => {
      handle.classList.remove('dragging');
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  });
  handle.addEventListener('keydown', (event) => {
    const now = Number(handle.getAttribute('aria-valuenow'));
    const to = { ArrowLeft: now - 5, ArrowRight: now + 5, Home: 20, End: 80 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    splitAt(to);
  });
  handle.addEventListener('dblclick', () => splitAt(50));
}

// -- wiring --------------------------------------------------------------------

function wire() {
  for (const ex of examples) {
    const option = document.createElement('option');
    option.value = ex.file;
    option.textContent = `${ex.file} (${EXTENSIONS[ex.lang]})`;
    ui.example.append(option);
  }
  ui.example.onchange = () => ui.example.value && loadExample(ui.example.value);
  ui.lang.onchange = () => {
    // The same text, read as the other language: your edit.
    const lang = ui.lang.value;
    keepDraftAside(lang, { source: source() });
    setSource(source(), lang, `program.${lang}`);
    saveDraft();
  };
  for (const field of [ui.input, ui.maxSteps, ui.fen, ui.depth, ui.noEndgame]) field.addEventListener('input', edited);
  ui.noEndgame.addEventListener('change', edited);
  ui.maxSteps.addEventListener('input', checkMaxSteps);
  ui.restoreDraft.onclick = restoreDraft;
  $('forget-draft').onclick = forgetAside;
  window.addEventListener('pagehide', () => saveTimer && saveDraft());
  ui.run.onclick = run;
  ui.debug.onclick = continueDebugging;
  ui.continue.onclick = continueDebugging;
  ui.pause.onclick = pauseDebugging;
  ui.stepOver.onclick = stepDebugging;
  ui.runToCursor.onclick = runToCursor;
  ui.follow.onchange = renderStep;
  ui.stop.onclick = stop;
  ui.share.onclick = shareLink;
  for (const button of document.querySelectorAll('[data-tab]')) button.onclick = () => showTab(button.dataset.tab);
  $('step-first').onclick = () => (stopPlaying(), stepTo(0));
  $('step-back').onclick = () => (stopPlaying(), stepTo((state.replay?.at ?? 0) - 1));
  $('step-forward').onclick = () => (stopPlaying(), stepTo((state.replay?.at ?? 0) + 1));
  $('debug-back').onclick = stepBack;
  $('cheg-continue').onclick = continueDebugging;
  $('cheg-step').onclick = stepDebugging;
  $('cheg-back').onclick = stepBack;
  $('cheg-cursor').onclick = runToCursor;
  $('step-last').onclick = () => (stopPlaying(), stepTo(state.replay?.length ?? 0));
  ui.play.onclick = () => (state.playing ? stopPlaying() : startPlaying());
  ui.scrub.oninput = () => (stopPlaying(), stepTo(Number(ui.scrub.value)));
  ui.speed.oninput = () => (ui.speedShown.textContent = `${speed()} steps/s`);
  ui.speed.oninput();
  ui.fen.oninput = () => state.lang === 'cheg' && showPosition(null);
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter' && !event.defaultPrevented) {
      event.preventDefault();
      run();
    }
    debugKey(event);
  });
  window.addEventListener('hashchange', loadFromLink);
  wireSplitter();
}

/** The debugger's keys, as debuggers have them: F5 Debug / Continue, F8
 * Pause / Continue, F10 Step, Shift+F10 Step back, Ctrl+F10 Run to cursor,
 * F9 a breakpoint on the cursor's line, Escape Stop. The browser's own
 * meaning of each (F5 reloads) is suppressed. */
function debugKey(event) {
  if (event.defaultPrevented || !icp) return;
  const ctrl = event.ctrlKey || event.metaKey;
  let action = null;
  if (event.key === 'F5' && !ctrl && !event.shiftKey) action = () => (ui.debug.disabled ? null : continueDebugging());
  else if (event.key === 'F8') action = pauseDebugging;
  else if (event.key === 'F10' && ctrl) action = runToCursor;
  else if (event.key === 'F10' && event.shiftKey) action = stepBack;
  else if (event.key === 'F10') action = () => (debug.status === 'running' ? null : stepDebugging());
  else if (event.key === 'F9') action = () => toggleBreakpoint(editor, editor.state.selection.main.head);
  else if (event.key === 'Escape' && (debug.live || !ui.stop.disabled)) action = stop;
  if (!action) return;
  event.preventDefault();
  action();
}

async function main() {
  try {
    const response = await wasmResponse;
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    module = await WebAssembly.compileStreaming(response).catch(async () => WebAssembly.compile(await (await fetch('icp2c.wasm')).arrayBuffer()));
    icp = await instantiate(module);
  } catch (error) {
    setStatus('error', `Could not load the compiler (icp2c.wasm): ${error.message}. Reload the page to try again.`);
    ui.run.disabled = ui.debug.disabled = true;
    throw error;
  }
  const about = icp.call(Op.about, []);
  $('version').textContent = `icp2c ${about.version}`;
  startWorker();
  wire();
  for (const control of [ui.example, ui.lang, ui.share]) control.disabled = false;
  const linked = await loadFromLink();
  if (!linked) {
    const failed = ui.status.dataset.state === 'error' ? ui.status.textContent : null;
    let lang = null;
    try {
      lang = localStorage.getItem(`${KEY}lang`);
    } catch {}
    const draft = EXTENSIONS[lang] ? readStored(draftKey(lang)) : null;
    if (draft) {
      show(draft);
      showDraftBar(draft.lang);
    } else loadExample(examples.some((e) => e.file === 'beer.icp') ? 'beer.icp' : examples[0].file);
    if (failed) setStatus('error', failed);
  }
  showTab('output');
}

/** For the browser test and the curious: the page's state and actions. */
window.playground = {
  ready: main(),
  setSource,
  loadExample,
  source,
  get replay() {
    return state.replay;
  },
  /** The whole standard output of the last run, drawn or not. */
  get output() {
    return stdoutView.text();
  },
  stepTo,
  /** Run, as its button does; resolves when it is over. */
  run,
  /** Debug with no breakpoint, to the end; resolves when it is over. */
  debugToEnd,
  /** The breakpoints' lines. */
  breakpointLines,
  /** Puts the cursor at the start of line `n` (1-based). */
  setCursorLine(n) {
    editor.dispatch({ selection: { anchor: editor.state.doc.line(n).from } });
    editor.focus();
  },
  /** The debugger's state. */
  debug,
};
