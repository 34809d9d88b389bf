// The playground's browser test: serves web/dist on localhost and drives
// Debian's Chromium, headless, through playwright-core, comparing what the
// page shows with what the native icp2c prints for the same program.
//
//   node test.mjs [--icp2c PATH] [--chromium PATH]
//
// (web/test.sh builds what it needs and runs this.) Writes screenshots to
// web/test-output/ (the board view, the mapped C tab, dark, small screen).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { examples } from './tools/examples.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const dist = path.join(here, 'dist');
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const icp2c = option('--icp2c', path.join(root, 'target', 'release', 'icp2c'));
const chromiumPath = option('--chromium', '/usr/bin/chromium');
/** The flags that work on a machine with no network but localhost. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WAIT = { timeout: 60_000 };
const shots = path.join(here, 'test-output');
fs.mkdirSync(shots, { recursive: true });

let server;
let browser;
let url;

/** A static file host for web/dist, as `python3 -m http.server` is. */
function serve() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.png': 'image/png' };
  return http.createServer((req, res) => {
    const wanted = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    const file = path.join(dist, path.normalize(wanted.endsWith('/') ? `${wanted}index.html` : wanted));
    if (!file.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' }).end(data);
    });
  });
}

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'web/dist is built (web/build.sh)');
  assert.ok(fs.existsSync(icp2c), `the native icp2c is at ${icp2c}`);
  server = serve().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.on('listening', resolve));
  url = `http://127.0.0.1:${server.address().port}/`;
  // Playwright gives the browser a new, empty profile of its own.
  browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page, loaded, its library ready; page errors fail the test. */
async function open(link = url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  await page.goto(link);
  await page.evaluate(() => window.playground.ready);
  return page;
}

/** Waits until the page is no longer running something. */
const settled = (page) => page.waitForFunction(() => document.getElementById('status').dataset.state !== 'running', null, WAIT);

/** The native icp2c's answer. */
function native(args, input = '', cwd = root) {
  const r = spawnSync(icp2c, args, { cwd, input, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** What a CHEG example is asked: its own comment's position, at its depth. */
const chegQuery = (ex) => ['--fen', ex.fen || '8/8/8/4k3/8/8/8/R3K3 w - - 0 1', '--depth', String(ex.depth || 4)];

test('every example: the page prints what icp2c run prints', async () => {
  const page = await open();
  for (const ex of examples()) {
    await page.selectOption('#example', ex.file);
    if (ex.lang === 'cheg') {
      const [, fen, , depth] = chegQuery(ex);
      await page.fill('#fen', fen);
      await page.fill('#depth', depth);
    } else {
      assert.equal(await page.inputValue('#input'), ex.input, ex.file);
    }
    await page.click('#run');
    await settled(page);
    const shown = await page.evaluate(() => ({
      stdout: document.getElementById('stdout').textContent,
      statements: document.getElementById('statements').textContent,
      exit: document.getElementById('exit').dataset.status,
      state: document.getElementById('status').dataset.state,
    }));
    assert.equal(shown.state, 'done', ex.file);
    const file = `examples/${ex.file}`;
    if (ex.lang === 'cheg') {
      const want = native(['run', file, ...chegQuery(ex), '--trace']);
      assert.equal(shown.stdout, want.stdout, `${ex.file}: standard output`);
      assert.match(shown.stdout, /^bestmove \S+ score -?\d+\n$/, ex.file);
      assert.equal(shown.statements, want.stderr, `${ex.file}: the statements run (--trace)`);
      assert.equal(shown.exit, String(want.status), ex.file);
      const marked = await page.locator('#position .sq.changed').count();
      assert.equal(marked, 2, `${ex.file}: the best move's squares are marked`);
    } else {
      const want = native(['run', file], ex.input);
      assert.equal(shown.stdout, want.stdout, `${ex.file}: standard output`);
      assert.equal(shown.exit, String(want.status), ex.file);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the C and Rust tabs hold what icp2c generates, downloadable', async () => {
  const page = await open();
  for (const ex of examples()) {
    await page.selectOption('#example', ex.file);
    for (const [tab, args, suffix] of [
      ['c', [], '.c'],
      ['rust', ['--target', 'rust'], '.rs'],
    ]) {
      await page.click(`[data-tab=${tab}]`);
      const link = page.locator(`#${tab}-download`);
      const shown = await link.evaluate(async (a) => ({ text: await (await fetch(a.href)).text(), name: a.download }));
      const want = native([...args, `examples/${ex.file}`]);
      assert.equal(want.status, 0, ex.file);
      assert.equal(shown.text, want.stdout, `${ex.file}: ${tab}`);
      assert.equal(shown.name, ex.file.replace(/\.[^.]+$/, suffix));
      const first = await page.locator(`#${tab}-view .cm-line`).first().textContent();
      assert.equal(first, want.stdout.split('\n')[0], `${ex.file}: the ${tab} view shows it`);
    }
  }
  await page.close();
});

test('an invalid program shows its diagnostics at their lines, with the CLI text', async () => {
  const page = await open();
  const bad = '1. "fine\n2. x=K0,0\n3. x;1,1?7\n# a comment\n5. y=Z1,1\n';
  await page.evaluate(() => window.playground.setSource('', 'icp', 'program.icp'));
  await page.click('#editor .cm-content');
  await page.keyboard.insertText(bad);
  assert.equal(await page.evaluate(() => window.playground.source()), bad, 'typed as is');
  // The empty program's warning goes once the typed one is checked.
  await page.waitForSelector('#diagnostics li.error', WAIT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icp2c-bad-'));
  fs.writeFileSync(path.join(dir, 'program.icp'), bad);
  const want = native(['--check', 'program.icp'], '', dir);
  fs.rmSync(dir, { recursive: true });
  assert.equal(want.status, 2);
  const first = await page.evaluate(() => {
    const li = document.querySelector('#diagnostics li');
    return { line: li.dataset.line, col: li.dataset.col, text: li.querySelector('pre').textContent, head: li.querySelector('button').textContent };
  });
  const where = /program\.icp:(\d+):(\d+)/.exec(want.stderr);
  assert.equal(first.line, where[1], 'the first diagnostic is on the line icp2c names');
  assert.equal(first.col, where[2]);
  assert.equal(first.line, '3');
  assert.ok(want.stderr.startsWith(first.text), `the CLI's text:\n${first.text}\n---\n${want.stderr}`);
  assert.equal(await page.locator('#diagnostics li').count(), 2);
  // The editor marks the same line.
  const marked = await page.evaluate(() => {
    const mark = document.querySelector('#editor .cm-lintRange-error');
    const line = mark && mark.closest('.cm-line');
    return line ? [...line.parentNode.children].indexOf(line) + 1 : null;
  });
  assert.equal(marked, 3);
  // Run shows what icp2c run shows on standard error, and exit status 2.
  await page.click('#run');
  await settled(page);
  assert.equal(await page.textContent('#stderr'), want.stderr);
  assert.equal(await page.evaluate(() => document.getElementById('exit').dataset.status), '2');
  await page.close();
});

/** The piece list of the board view: [name, glyph, square] rows. */
const pieceList = (page) =>
  page.$$eval('#pieces tbody tr', (rows) => rows.map((r) => [...r.children].map((td) => td.textContent)));

async function stepTo(page, n) {
  for (;;) {
    const at = Number(await page.evaluate(() => document.getElementById('step-count').dataset.at));
    if (at === n) return;
    // A run debugged to its end is at its last step: jump near, then click.
    if (Math.abs(at - n) > 3) await page.evaluate((n) => window.playground.stepTo(n - 1), n);
    await page.click(at < n ? '#step-forward' : '#step-back');
  }
}

test('the board view steps through multiply.icp forwards and backwards', async () => {
  const page = await open();
  await page.selectOption('#example', 'multiply.icp');
  await page.click('#debug');
  await settled(page);
  assert.equal(await page.textContent('#board-output'), '42\n', 'a run debugged to its end shows its end');
  await page.click('#step-first');
  assert.equal(await page.textContent('#board-output'), '', 'nothing printed at the start');
  const total = await page.evaluate(() => window.playground.replay.length);
  const trace = native(['run', '--trace', '--glyphs', 'letters', 'examples/multiply.icp'], '6 7\n');
  assert.equal(total, trace.stderr.split('\n').length - 1, 'one step per --trace line');
  const seven = [
    ['a', '♖', '(0,6)'],
    ['b', '♖', '(1,7)'],
    ['lid', '♔', '(1000,1000000)'],
    ['t', '♖', '(2,0)'],
    ['wall', '♙', '(0,-1)'],
    ['wall', '♙', '(1,-1)'],
    ['wall', '♙', '(2,-1)'],
  ];
  await stepTo(page, 7);
  assert.deepEqual(await pieceList(page), seven);
  assert.equal(await page.textContent('#step-trace'), trace.stderr.split('\n')[6]);
  await stepTo(page, 11);
  const eleven = await pieceList(page);
  for (const p of [['a', '♖', '(0,5)'], ['b', '♖', '(1,6)'], ['t', '♖', '(2,1)'], ['out', '♙', '(0,1000000)']]) {
    assert.ok(eleven.some((q) => q.join() === p.join()), `${p} after 11 steps: ${JSON.stringify(eleven)}`);
  }
  // The board draws them on their squares, the moved ones marked.
  // White pieces are drawn with the solid glyph, filled white (see the
  // contrast test); the piece list keeps the usual white symbol.
  assert.equal(await page.textContent('[data-square="0,5"] .piece.w'), '♜');
  assert.equal(await page.getAttribute('[data-square="0,5"] .piece', 'data-piece'), 'wr');
  assert.equal(await page.textContent('[data-square="0,5"] .name'), 'a');
  assert.equal(await page.textContent('[data-square="0,1000000"] .name'), 'out');
  assert.ok(await page.locator('[data-square="0,1000000"].changed').count(), 'the placed pawn is marked');
  await page.screenshot({ path: path.join(shots, 'board.png') });
  await stepTo(page, 7);
  assert.deepEqual(await pieceList(page), seven, 'back to step 7');
  // The scrubber jumps.
  await page.$eval('#scrub', (s) => {
    s.value = '11';
    s.dispatchEvent(new Event('input'));
  });
  assert.deepEqual(await pieceList(page), eleven, 'scrubbed to step 11');
  await page.click('#step-last');
  const end = await pieceList(page);
  const pawns = end.filter((p) => p[0] === 'out').map((p) => p[2]);
  assert.equal(pawns.length, 42);
  assert.equal(pawns[0], '(958,1000000)');
  assert.equal(pawns[41], '(999,1000000)');
  assert.equal(await page.textContent('#board-output'), '42\n');
  await page.click('#step-first');
  assert.deepEqual(await pieceList(page), []);
  // Play runs on by itself.
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-count').dataset.at) >= 3, null, WAIT);
  await page.click('#play');
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** The debugger's state on the page: status, the next line, steps run. */
const debugState = (page) =>
  page.evaluate(() => ({
    state: document.getElementById('status').dataset.state,
    status: window.playground.debug.status,
    next: window.playground.debug.next,
    ran: window.playground.debug.ran,
    highlighted: [...document.querySelectorAll('#editor .cm-step-line')].map((l) => l.textContent),
  }));

/** Clicks the breakpoint gutter beside line `n` (1-based). */
async function clickGutter(page, n) {
  const box = await page.evaluate((n) => {
    const number = [...document.querySelectorAll('#editor .cm-lineNumbers .cm-gutterElement')].find((e) => e.textContent === String(n));
    number.scrollIntoView({ block: 'center' });
    const y = number.getBoundingClientRect();
    const x = document.querySelector('#editor .cm-breakpoint-gutter').getBoundingClientRect();
    return { x: x.x + x.width / 2, y: y.y + y.height / 2 };
  }, n);
  await page.mouse.click(box.x, box.y);
}

const pausedAt = (page) => page.waitForFunction(() => window.playground.debug.status !== 'running', null, WAIT);

test('the debugger: a breakpoint hit and continued on multiply.icp, steps forwards and back, run to cursor', async () => {
  const page = await open();
  await page.selectOption('#example', 'multiply.icp');
  // Line 20 is `13. out=P0,1000000`, run once for each unit added to the product.
  await clickGutter(page, 20);
  assert.deepEqual(await page.evaluate(() => window.playground.breakpointLines()), [20]);
  await page.keyboard.press('F5');
  await pausedAt(page);
  let s = await debugState(page);
  assert.equal(s.state, 'paused');
  assert.equal(s.next, 20, 'paused before the breakpoint');
  assert.deepEqual(s.highlighted, ['13. out=P0,1000000'], 'the statement that runs next is highlighted');
  assert.match(await page.textContent('#status'), /^Paused at a breakpoint on line 20 after /);
  // a and b each gave one to t; no product pawn yet.
  assert.deepEqual(await pieceList(page), [
    ['a', '♖', '(0,5)'],
    ['b', '♖', '(1,6)'],
    ['lid', '♔', '(1000,1000000)'],
    ['t', '♖', '(2,1)'],
    ['wall', '♙', '(0,-1)'],
    ['wall', '♙', '(1,-1)'],
    ['wall', '♙', '(2,-1)'],
  ]);
  await page.screenshot({ path: path.join(shots, 'playground-debugger.png') });
  // Continue: the next time round, one product pawn has been pushed up to the lid.
  await page.click('#debug-continue');
  await pausedAt(page);
  s = await debugState(page);
  assert.equal(s.next, 20);
  const second = await pieceList(page);
  assert.ok(second.some((p) => p.join() === 'out,♙,(999,1000000)'), JSON.stringify(second));
  assert.ok(second.some((p) => p.join() === 'b,♖,(1,5)'), JSON.stringify(second));
  // The board follows the moves: the pieces the last step changed are in view.
  const inView = await page.evaluate(() => {
    const board = document.getElementById('board').getBoundingClientRect();
    const sq = document.querySelector('#board .changed').getBoundingClientRect();
    return sq.bottom > board.top && sq.top < board.bottom;
  });
  assert.ok(inView, 'the changed squares are scrolled into view');
  // Step (F10) runs the breakpoint's statement: a pawn placed; Shift+F10
  // steps back through the history.
  const before = s.ran;
  await page.keyboard.press('F10');
  await pausedAt(page);
  s = await debugState(page);
  assert.equal(s.ran, before + 1);
  assert.equal(s.next, 21);
  assert.ok((await pieceList(page)).some((p) => p.join() === 'out,♙,(0,1000000)'));
  await page.keyboard.press('Shift+F10');
  assert.equal(await page.evaluate(() => document.getElementById('step-count').dataset.at), String(before));
  assert.ok(!(await pieceList(page)).some((p) => p.join() === 'out,♙,(0,1000000)'), 'stepped back before the placement');
  assert.deepEqual((await debugState(page)).highlighted, ['13. out=P0,1000000']);
  // F10 replays the step from the history, then runs on live.
  await page.keyboard.press('F10');
  assert.equal(await page.evaluate(() => document.getElementById('step-count').dataset.at), String(before + 1));
  // Run to cursor: the line of `40. %out`, with the breakpoint removed (F9).
  await page.evaluate(() => window.playground.setCursorLine(20));
  await page.keyboard.press('F9');
  assert.deepEqual(await page.evaluate(() => window.playground.breakpointLines()), []);
  await page.evaluate(() => window.playground.setCursorLine(26));
  await page.keyboard.press('Control+F10');
  await pausedAt(page);
  s = await debugState(page);
  assert.equal(s.next, 26);
  assert.equal(await page.evaluate(() => window.playground.output), '', 'nothing printed yet');
  assert.equal(await page.textContent('#board-output'), '');
  // Continue to the end: the product, as icp2c run prints it.
  await page.keyboard.press('F5');
  await settled(page);
  s = await debugState(page);
  assert.equal(s.status, 'ended');
  assert.equal(await page.evaluate(() => window.playground.output), '42\n');
  assert.equal(await page.textContent('#exit'), 'exit status 0');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the debugger pauses a live run, steps it, marks a runtime error at its statement, and Escape stops', async () => {
  const page = await open();
  // A countdown from 10^9 prints as it goes: pause it mid-run.
  await page.selectOption('#example', 'countdown.fin');
  await page.fill('#input', '1000000000');
  await page.click('#debug');
  await page.waitForFunction(() => window.playground.debug.ran > 2000, null, WAIT);
  assert.equal((await debugState(page)).state, 'running');
  assert.ok(await page.evaluate(() => window.playground.output.length > 0), 'output streams while it runs');
  await page.keyboard.press('F8');
  await pausedAt(page);
  let s = await debugState(page);
  assert.equal(s.state, 'paused');
  const printed = await page.evaluate(() => window.playground.output);
  assert.ok(countsDown(printed, 1000000000), 'the output so far');
  await page.keyboard.press('F10');
  await pausedAt(page);
  assert.equal((await debugState(page)).ran, s.ran + 1, 'one move');
  // F8 again continues; Escape stops and keeps the output.
  await page.keyboard.press('F8');
  await page.waitForFunction((n) => window.playground.debug.ran > n, s.ran + 1, WAIT);
  await page.keyboard.press('Escape');
  assert.equal((await status(page)).state, 'stopped');
  assert.ok((await page.evaluate(() => window.playground.output)).length >= printed.length, 'Stop keeps the output');
  assert.match(await page.textContent('#exit'), /^stopped by you after [\d,]+ steps/);

  // §8: a jump to a label read from input that names no statement.
  await page.evaluate(() => window.playground.setSource('# jumps where input says\n1. x=K0,0\n2. ^?*\n3. %x\n', 'icp', 'jump.icp'));
  await page.fill('#input', '99');
  await page.keyboard.press('F5');
  await settled(page);
  const marked = await page.evaluate(() => [...document.querySelectorAll('#editor .cm-error-line')].map((l) => l.textContent));
  assert.deepEqual(marked, ['2. ^?*'], 'the failing statement is marked');
  assert.match(await page.textContent('#board-note'), /^Runtime error on line 3: statement 2: no statement is labelled 99/);
  assert.equal(await page.textContent('#exit'), 'exit status 1');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("CHEG's debugger steps through the statements run at the root", async () => {
  const page = await open();
  await page.selectOption('#example', 'tour.cheg');
  const fen = await page.inputValue('#fen');
  const depth = await page.inputValue('#depth');
  const want = native(['run', 'examples/tour.cheg', '--fen', fen, '--depth', depth, '--trace'])
    .stderr.split('\n')
    .filter((l) => l.startsWith('root '))
    .map((l) => Number(/^root (\d+):/.exec(l)[1]));
  const current = () =>
    page.evaluate(() => ({
      item: document.querySelector('#statements .current')?.textContent ?? null,
      highlighted: [...document.querySelectorAll('#editor .cm-step-line')].map((l) => l.textContent.trim()),
    }));
  // Line 17 is `CONDV KING,P,YES`: F5 runs the search and stops at its first root statement there.
  await clickGutter(page, 17);
  await page.keyboard.press('F5');
  await page.waitForFunction(() => document.querySelector('#statements .current'), null, WAIT);
  let c = await current();
  assert.match(c.item, /^root 17: CONDV KING,P,YES/);
  assert.deepEqual(c.highlighted, ['CONDV KING,P,YES']);
  const first = want.indexOf(17);
  assert.match(await page.textContent('#status'), new RegExp(`^Root statement ${first + 1} of ${want.length}: line 17 \\(a breakpoint\\)`));
  // F10 the next statement, Shift+F10 back, F5 the next time line 17 runs.
  await page.keyboard.press('F10');
  assert.match((await current()).item, new RegExp(`^root ${want[first + 1]}: `));
  await page.keyboard.press('Shift+F10');
  assert.match((await current()).item, /^root 17: /);
  await page.keyboard.press('F5');
  assert.match(await page.textContent('#status'), new RegExp(`^Root statement ${want.indexOf(17, first + 1) + 1} of `));
  // Run to cursor: line 18, `RETURN "F`, the first time it runs after.
  const at = want.indexOf(17, first + 1);
  await page.evaluate(() => window.playground.setCursorLine(18));
  await page.keyboard.press('Control+F10');
  assert.match((await current()).item, /^root 18: RETURN "F/);
  assert.match(await page.textContent('#status'), new RegExp(`^Root statement ${want.indexOf(18, at + 1) + 1} of `));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the board view shows Finvara's holes and stacks", async () => {
  const page = await open();
  await page.selectOption('#example', 'countdown.fin');
  await page.click('#debug');
  await settled(page);
  await stepTo(page, 4);
  assert.equal(await page.locator('#board .sq.hole').count(), 5);
  assert.match(await page.textContent('#stacks [data-side=white]'), /\(2\): \[5 -1\]/);
  assert.match(await page.textContent('#stacks [data-side=black]'), /\(1\): \[1\]/);
  assert.equal(await page.textContent('#board-output'), '5\n');
  // At the end, the trace's closing line says how the game ended.
  await page.click('#step-last');
  const trace = native(['run', '--trace', 'examples/countdown.fin'], '5\n').stderr.trimEnd().split('\n');
  assert.match(trace.at(-1), /^end: /);
  assert.equal(await page.textContent('#step-trace'), trace.slice(-2).join('\n'));
  await page.close();
});

test('beer runs to completion in under a second after load', async () => {
  const page = await open();
  await page.selectOption('#example', 'beer.icp');
  const started = Date.now();
  await page.click('#run');
  await settled(page);
  const ms = Date.now() - started;
  const want = native(['run', 'examples/beer.icp']);
  assert.equal(await page.textContent('#stdout'), want.stdout);
  console.log(`# beer: ${ms} ms from Run to its last line`);
  assert.ok(ms < 1000, `beer took ${ms} ms`);
  await page.close();
});

test('a program that loops forever can be stopped, and the page runs on', async () => {
  const page = await open();
  await page.evaluate(() => window.playground.setSource('# forever\n1. ^?1\n', 'icp', 'forever.icp'));
  await page.fill('#max-steps', '');
  await page.click('#run');
  await page.waitForTimeout(800);
  assert.equal(await page.evaluate(() => document.getElementById('status').dataset.state), 'running');
  // The page answers while the worker loops: the editor takes a keystroke.
  await page.click('#editor .cm-content');
  await page.keyboard.press('End');
  assert.equal(await page.isEnabled('#stop'), true);
  await page.click('#stop');
  assert.equal(await page.evaluate(() => document.getElementById('status').dataset.state), 'stopped');
  assert.equal(await page.isEnabled('#run'), true);
  // With a budget it ends by itself, as icp2c run --max-steps does.
  await page.fill('#max-steps', '1000');
  await page.click('#run');
  await settled(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icp2c-forever-'));
  fs.writeFileSync(path.join(dir, 'forever.icp'), '# forever\n1. ^?1\n');
  const want = native(['run', '--max-steps', '1000', 'forever.icp'], '', dir);
  fs.rmSync(dir, { recursive: true });
  assert.equal(want.status, 3);
  assert.equal(await page.textContent('#stderr'), want.stderr);
  assert.equal(await page.evaluate(() => document.getElementById('exit').dataset.status), '3');
  await page.close();
});

test('a shared link carries the program', async () => {
  const page = await open();
  await page.selectOption('#example', 'sum.icp');
  await page.fill('#input', '1 2 3');
  await page.click('#share');
  await page.waitForFunction(() => document.getElementById('share-link').value.includes('#p='), null, WAIT);
  const link = await page.inputValue('#share-link');
  assert.match(link, /#p=[A-Za-z0-9_-]+$/);
  const source = await page.evaluate(() => window.playground.source());
  const other = await open(link);
  assert.equal(await other.evaluate(() => window.playground.source()), source);
  assert.equal(await other.inputValue('#input'), '1 2 3');
  await other.click('#run');
  await settled(other);
  assert.equal(await other.textContent('#stdout'), '6\n');
  await other.close();
  await page.close();
});

// -- a debugger people trust ------------------------------------------------

/** The page's status: its state and text. */
const status = (page) => page.evaluate(() => ({ state: document.getElementById('status').dataset.state, text: document.getElementById('status').textContent }));

/** Standard output as shown, and how many bytes the page holds. */
const shownOutput = (page) =>
  page.evaluate(() => {
    const pre = document.getElementById('stdout');
    return { text: pre.textContent, bytes: Number(pre.dataset.bytes), hidden: Number(pre.dataset.hidden) };
  });

/** True when `text` is countdown.fin's output from `from` down, line by
 * line (perhaps cut inside its last line). */
function countsDown(text, from) {
  const lines = text.split('\n');
  const last = lines.pop();
  return lines.length > 0 && lines.every((l, i) => l === String(from - i)) && String(from - lines.length).startsWith(last);
}

test('one run at a time: a new program, Run or Debug ends the run in flight, and nothing of it shows', async () => {
  const page = await open();
  // About 3 s of steps (some 10^8 a second), ending by --max-steps.
  await page.evaluate(() => window.playground.setSource('# spins\n1. ^?1\n', 'icp', 'spin.icp'));
  await page.fill('#max-steps', '300000000');
  await page.click('#run');
  await page.waitForTimeout(300);
  assert.equal((await status(page)).state, 'running');
  await page.selectOption('#example', 'sum.icp');
  assert.deepEqual(await status(page), { state: 'idle', text: 'Ready.' }, 'loading an example ends the run');
  // The next run is not held up by the old one's worker.
  let started = Date.now();
  await page.click('#run');
  await settled(page);
  assert.ok(Date.now() - started < 2000, `sum ran in ${Date.now() - started} ms, after the old run was ended`);
  const sumOut = native(['run', 'examples/sum.icp'], await page.inputValue('#input')).stdout;
  assert.equal(await page.textContent('#stdout'), sumOut);
  const done = await status(page);
  assert.equal(done.state, 'done');
  // Past the time the old run would have ended: no "Finished" or output of it.
  await page.waitForTimeout(3500);
  assert.deepEqual(await status(page), done, 'the old run changes nothing');
  assert.equal(await page.textContent('#stdout'), sumOut);
  assert.equal(await page.textContent('#exit'), 'exit status 0');

  // A program that prints as it goes, forever: another example loaded
  // during its run shows none of its output.
  await page.selectOption('#example', 'countdown.fin');
  await page.fill('#max-steps', '');
  await page.fill('#input', '1000000000');
  await page.click('#run');
  await page.waitForFunction(() => Number(document.getElementById('stdout').dataset.bytes) > 0, null, WAIT);
  await page.selectOption('#example', 'beer.icp');
  await page.waitForTimeout(1000);
  assert.equal(await page.textContent('#stdout'), '', 'no stale output');
  assert.deepEqual(await status(page), { state: 'idle', text: 'Ready.' });
  started = Date.now();
  await page.click('#run');
  await settled(page);
  assert.ok(Date.now() - started < 2000, `beer ran in ${Date.now() - started} ms`);
  assert.equal(await page.textContent('#stdout'), native(['run', 'examples/beer.icp']).stdout);

  // Run again during a run (Ctrl+Enter): the first run ends, and the
  // output is the second run's alone (two runs would interleave lines).
  await page.selectOption('#example', 'countdown.fin');
  await page.fill('#input', '1000000000');
  await page.click('#run');
  await page.waitForFunction(() => Number(document.getElementById('stdout').dataset.bytes) > 2000, null, WAIT);
  await page.evaluate(() => {
    window.playground.run(); // as Ctrl+Enter does; not awaited: it runs on
  });
  await page.waitForFunction(() => Number(document.getElementById('stdout').dataset.bytes) > 5000, null, WAIT);
  await page.click('#stop');
  // The whole output (what is drawn may be cut to its first and last
  // parts when the machine is slow to stop it).
  const again = await page.evaluate(() => window.playground.output);
  assert.ok(countsDown(again, 1000000000), `one run's countdown (${again.length} bytes):\n${again.slice(0, 200)}\n…\n${again.slice(-200)}`);

  // The same for Debug: a debugged run in flight is dropped with its program.
  await page.evaluate(() => window.playground.setSource('# forever\n1. ^?1\n', 'icp', 'forever.icp'));
  await page.click('#debug');
  await page.selectOption('#example', 'multiply.icp');
  await page.waitForTimeout(3000);
  assert.equal(await page.evaluate(() => window.playground.replay), null, 'no steps of the old program');
  assert.match(await page.textContent('#board-note'), /^Press Debug \(F5\)/);
  assert.deepEqual(await status(page), { state: 'idle', text: 'Ready.' });
  await page.click('#debug');
  await settled(page);
  assert.equal(await page.evaluate(() => window.playground.output), '42\n', "multiply's own run");
  assert.equal(await page.textContent('#board-output'), '42\n');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('output streams while a program runs, Run shows it, and Stop keeps it', async () => {
  const page = await open();
  await page.selectOption('#example', 'countdown.fin');
  await page.fill('#input', '1000000000');
  await page.click('[data-tab=board]');
  await page.click('#run');
  assert.equal(await page.isVisible('#tab-output'), true, 'Run switches to the Output tab');
  // Output shows during the run, and grows.
  await page.waitForFunction(() => Number(document.getElementById('stdout').dataset.bytes) > 0, null, WAIT);
  const early = await shownOutput(page);
  assert.equal((await status(page)).state, 'running', 'output before the run ends');
  await page.waitForFunction((n) => Number(document.getElementById('stdout').dataset.bytes) > n, early.bytes, WAIT);
  await page.click('#stop');
  const stopped = await shownOutput(page);
  assert.equal((await status(page)).state, 'stopped');
  assert.ok(stopped.bytes > early.bytes);
  if (!stopped.hidden) assert.equal(stopped.text.length, stopped.bytes, 'all of it shown when nothing is hidden');
  const whole = await page.evaluate(() => window.playground.output);
  assert.equal(whole.length, stopped.bytes);
  assert.ok(countsDown(whole, 1000000000), `countdown.fin's lines:\n${whole.slice(0, 200)}`);
  assert.match(await page.textContent('#exit'), /^stopped by you after \d+ ms: no exit status \(the output above is the [\d,]+ bytes/);
  await page.waitForTimeout(500);
  assert.deepEqual(await shownOutput(page), stopped, 'nothing arrives after Stop');
  // An InfChessPro line printed before a long loop shows during the loop:
  // the page's runs write as the program prints (the CLI gathers 64 KiB).
  await page.evaluate(() => window.playground.setSource('# prints, then spins\n1. "first\n2. ^?2\n', 'icp', 'late.icp'));
  await page.fill('#max-steps', '300000000');
  await page.click('#run');
  await page.waitForFunction(() => window.playground.output === 'first\n', null, WAIT);
  assert.equal((await status(page)).state, 'running', 'the line shows before the run ends');
  await page.click('#stop');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('16 MiB of output: a bounded view, a download of all of it, and no long task', async () => {
  const page = await open();
  const line = `${'0123456789'.repeat(99)}!!!`;
  const program = `# prints until the page's 16 MiB are full\n1. "${line}\n2. ^?1\n`;
  await page.evaluate((p) => window.playground.setSource(p, 'icp', 'flood.icp'), program);
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask' });
  });
  await page.click('#run');
  await settled(page);
  // Let the observer report the last tasks.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  const tasks = await page.evaluate(() => window.longTasks);
  console.log(`# 16 MiB of output: long tasks ${JSON.stringify(tasks)} ms`);
  // A frame is 16 ms; 200 ms leaves a wide margin for a loaded CI machine
  // (drawing the whole output at once takes seconds).
  assert.ok(tasks.every((ms) => ms <= 200), `long tasks: ${tasks}`);
  const MiB16 = 16 << 20;
  const want = `${line}\n`.repeat(Math.ceil(MiB16 / (line.length + 1))).slice(0, MiB16);
  const shown = await shownOutput(page);
  assert.equal(shown.bytes, MiB16);
  assert.ok(shown.text.length < 80_000, `at most a bounded window is drawn (${shown.text.length} characters)`);
  const note = await page.textContent('#stdout .hidden-note');
  assert.equal(shown.hidden, MiB16 - 2 * 32768);
  assert.match(note, /… 16,711,680 bytes hidden \(of 16,777,216: the first and last parts are shown; download all\)/);
  assert.ok(shown.text.startsWith(want.slice(0, 32768) + note), 'the first part, then the line');
  assert.ok(shown.text.endsWith(note + want.slice(-32768)), 'the line, then the last part');
  assert.equal(await page.evaluate(() => document.getElementById('exit').dataset.status), '1');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#stdout .download-all')]);
  assert.equal(download.suggestedFilename(), 'flood.out');
  const saved = fs.readFileSync(await download.path(), 'utf8');
  assert.equal(saved.length, MiB16);
  assert.ok(saved === want, 'the download holds all of it');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('work is kept: drafts per language survive a reload, and a shared link is a copy', async () => {
  const page = await open();
  const mine = '# mine\n1. "mine\n';
  await page.evaluate(() => window.playground.setSource('', 'icp', 'program.icp'));
  await page.click('#editor .cm-content');
  await page.keyboard.insertText(mine);
  await page.fill('#input', 'my input');
  await page.fill('#max-steps', '500');
  const savedDraft = () => page.evaluate(() => JSON.parse(localStorage.getItem('icp2c.playground.draft.icp') || 'null'));
  await page.waitForFunction(() => (localStorage.getItem('icp2c.playground.draft.icp') || '').includes('"maxSteps":"500"'), null, WAIT);
  await page.reload();
  await page.evaluate(() => window.playground.ready);
  assert.equal(await page.evaluate(() => window.playground.source()), mine, 'the program comes back');
  assert.equal(await page.inputValue('#input'), 'my input');
  assert.equal(await page.inputValue('#max-steps'), '500');
  assert.equal(await page.textContent('#file-name'), 'program.icp');
  assert.equal(await page.isVisible('#draft-bar'), false, 'nothing kept aside yet');

  // A shared link (made on another page) opens as a copy.
  const sharer = await open();
  await sharer.selectOption('#example', 'sum.icp');
  await sharer.fill('#input', '1 2 3');
  await sharer.click('#share');
  await sharer.waitForFunction(() => document.getElementById('share-link').value.includes('#p='), null, WAIT);
  const link = await sharer.inputValue('#share-link');
  const sum = await sharer.evaluate(() => window.playground.source());
  await sharer.close();
  const openLink = async () => {
    await page.goto('about:blank');
    await page.goto(link);
    await page.evaluate(() => window.playground.ready);
  };
  await openLink();
  assert.equal(await page.evaluate(() => window.playground.source()), sum);
  assert.equal(await page.inputValue('#input'), '1 2 3');
  assert.equal((await savedDraft()).source, mine, 'the link does not overwrite the draft');
  assert.equal(await page.isVisible('#draft-bar'), true);
  await page.click('#restore-draft');
  assert.equal(await page.evaluate(() => window.playground.source()), mine, 'one click brings the draft back');
  assert.equal(await page.inputValue('#input'), 'my input');

  // Edits of a link's copy are saved as your own; your draft stays one click away.
  await openLink();
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+Home');
  await page.keyboard.insertText('# edited\n');
  await page.waitForFunction(() => (localStorage.getItem('icp2c.playground.draft.icp') || '').includes('# edited'), null, WAIT);
  assert.equal(new URL(page.url()).hash, '', 'the link no longer describes the program');
  await page.reload();
  await page.evaluate(() => window.playground.ready);
  assert.equal(await page.evaluate(() => window.playground.source()), `# edited\n${sum}`, 'the edited copy is the draft now');
  assert.equal(await page.isVisible('#draft-bar'), true);
  await page.click('#restore-draft');
  assert.equal(await page.evaluate(() => window.playground.source()), mine);
  assert.equal((await savedDraft()).source, mine);
  // Each language has its own draft.
  await page.selectOption('#example', 'countdown.fin');
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('# fin edit\n');
  await page.waitForFunction(() => (localStorage.getItem('icp2c.playground.draft.fin') || '').includes('# fin edit'), null, WAIT);
  await page.reload();
  await page.evaluate(() => window.playground.ready);
  assert.match(await page.evaluate(() => window.playground.source()), /# fin edit\n$/, 'the last language edited comes back');
  assert.equal((await savedDraft()).source, mine, "InfChessPro's draft is its own");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('readable: Max steps is checked, a damaged link is explained, pieces stand out', async () => {
  const page = await open();
  await page.evaluate(() => window.playground.setSource('# forever\n1. ^?1\n', 'icp', 'forever.icp'));
  for (const [bad, why] of [
    ['abc', /must be a whole number of steps \(“abc” is not\)/],
    ['-5', /cannot be negative/],
    ['1e3', /must be written out in digits/],
    ['99999999999999999999', /can be at most/],
  ]) {
    await page.fill('#max-steps', bad);
    assert.equal(await page.isVisible('#max-steps-error'), true, bad);
    assert.match(await page.textContent('#max-steps-error'), why);
    await page.click('#run');
    const s = await status(page);
    assert.equal(s.state, 'error', `${bad} is refused`);
    assert.match(s.text, why);
    assert.equal(await page.textContent('#exit'), '', 'nothing ran');
  }
  await page.fill('#max-steps', '1_000');
  assert.equal(await page.isVisible('#max-steps-error'), false);
  await page.click('#run');
  await settled(page);
  assert.equal(await page.evaluate(() => document.getElementById('exit').dataset.status), '3', 'stopped after 1,000 steps');

  // Damaged links say what is wrong, in words.
  const sharer = await open();
  await sharer.selectOption('#example', 'sum.icp');
  await sharer.click('#share');
  await sharer.waitForFunction(() => document.getElementById('share-link').value.includes('#p='), null, WAIT);
  const link = await sharer.inputValue('#share-link');
  await sharer.close();
  for (const [broken, why] of [
    [link.slice(0, link.length - 20), /damaged or cut short/],
    [`${link.split('#')[0]}#p=not+a+link`, /not what the Share button writes/],
  ]) {
    const other = await open(broken);
    const s = await status(other);
    assert.equal(s.state, 'error');
    assert.match(s.text, /^This link's program could not be read: /);
    assert.match(s.text, why);
    assert.doesNotMatch(s.text, /fetch|TypeError/i);
    assert.match(await other.evaluate(() => window.playground.source()), /bottles of beer/, 'the page works on');
    await other.close();
  }

  // White pieces: solid, with a dark outline that stands out from both
  // square colours (WCAG contrast of at least 3:1, from the computed styles).
  await page.selectOption('#example', 'multiply.icp');
  await page.click('#debug');
  await settled(page);
  await stepTo(page, 7);
  const look = await page.evaluate(() => {
    const piece = document.querySelector('#board .piece.w');
    const style = getComputedStyle(piece);
    const bg = (cls) => getComputedStyle(document.querySelector(`#board .sq.${cls}`)).backgroundColor;
    return { glyph: piece.textContent, fill: style.color, stroke: style.webkitTextStrokeColor, width: style.webkitTextStrokeWidth, light: bg('light'), dark: bg('dark') };
  });
  const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
  const luminance = (c) => {
    const [r, g, b] = rgb(c).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  assert.ok('♚♛♜♝♞♟'.includes(look.glyph), `a solid glyph: ${look.glyph}`);
  assert.equal(look.fill, 'rgb(255, 255, 255)', 'filled white');
  assert.ok(parseFloat(look.width) >= 1, `an outline: ${look.width}`);
  for (const square of [look.light, look.dark]) {
    const ratio = contrast(look.stroke, square);
    assert.ok(ratio >= 3, `outline ${look.stroke} on ${square}: ${ratio.toFixed(2)}:1`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** The number of the first line shown in a code view (its gutter). */
const firstVisibleLine = (page, tab) =>
  page.evaluate((tab) => {
    const scroller = document.querySelector(`#${tab}-view .cm-scroller`).getBoundingClientRect();
    const numbers = [...document.querySelectorAll(`#${tab}-view .cm-lineNumbers .cm-gutterElement`)]
      .filter((e) => e.style.visibility !== 'hidden' && e.getBoundingClientRect().height > 0)
      .filter((e) => e.getBoundingClientRect().bottom > scroller.top + 2);
    return Number(numbers[0].textContent);
  }, tab);

/** The text of the lines highlighted (.cm-mapped) in a view. */
const mappedLines = (page, selector) => page.$$eval(`${selector} .cm-line.cm-mapped`, (ls) => ls.map((l) => l.textContent));

test('source mapped to the generated code: runtime folded, each statement and its case highlighted alike', async () => {
  const page = await open();
  await page.selectOption('#example', 'multiply.icp');
  const src = fs.readFileSync(path.join(root, 'examples/multiply.icp'), 'utf8').split('\n');
  const lineOf = (text) => src.indexOf(text) + 1;
  for (const [tab, args, caseLine] of [
    ['c', [], (label, text) => `        case ${label}: /* ${text} */`],
    ['rust', ['--target', 'rust'], (label, text) => `                // ${text}`],
  ]) {
    const generated = native([...args, 'examples/multiply.icp']).stdout.split('\n');
    // Where the native output's own code starts: after its runtime.
    const runtimeEnd =
      tab === 'c'
        ? generated.findIndex((l) => /end of the board runtime/.test(l)) + 1
        : generated.indexOf('}', generated.indexOf('mod icp_rt {')) + 1;
    const firstCase = generated.indexOf(caseLine(1, '1. wall=P0,-1')) + 1;
    assert.ok(runtimeEnd > 100 && firstCase > runtimeEnd, `${tab}: the runtime ends at ${runtimeEnd}, the first case at ${firstCase}`);
    await page.click('[data-tab=output]');
    await page.locator('#editor .cm-line').first().click({ position: { x: 4, y: 4 } });
    await page.click(`[data-tab=${tab}]`);
    await page.waitForFunction((tab) => document.querySelector(`#${tab}-view .cm-editor`).dataset.start, tab, WAIT);
    await page.waitForTimeout(200);
    const first = await firstVisibleLine(page, tab);
    // (The cursor is on line 1, a comment: the view is at the program's start.)
    assert.ok(first > runtimeEnd && first <= firstCase, `${tab}: opens at line ${first}, in the program's code (${runtimeEnd + 1} to the first case, ${firstCase})`);
    // Above it, the runtime is one folded line.
    await page.$eval(`#${tab}-view .cm-scroller`, (s) => (s.scrollTop = 0));
    await page.locator(`#${tab}-view .runtime-fold`).first().waitFor(WAIT);
    assert.match(await page.locator(`#${tab}-view .runtime-fold`).first().textContent(), /the runtime: [\d,]+ lines/);
    const shownLines = await page.$$eval(`#${tab}-view .cm-line`, (ls) => ls.map((l) => l.textContent));
    assert.ok(!shownLines.some((l) => /icp2c C prelude|^mod icp_rt \{/.test(l)), `${tab}: no runtime line shows`);

    // The cursor on a statement: its case is highlighted, and only it.
    for (const [label, text] of [
      ['11', '11. b;0,-1!30'],
      ['40', '40. %out'],
    ]) {
      const n = lineOf(text);
      assert.ok(n > 0, text);
      await page.locator('#editor .cm-line').nth(n - 1).click({ position: { x: 4, y: 4 } });
      await page.waitForFunction(([tab, want]) => [...document.querySelectorAll(`#${tab}-view .cm-line.cm-mapped`)].some((l) => l.textContent === want), [tab, caseLine(label, text)], WAIT);
      const lines = await mappedLines(page, `#${tab}-view`);
      const markers = lines.filter((l) => /case \d+: \/\*|^\s*\/\/ \d+\. /.test(l));
      assert.deepEqual(markers, [caseLine(label, text)], `${tab}: line ${n} (${text}) highlights its case alone`);
      assert.deepEqual(await mappedLines(page, '#editor'), [text], `${tab}: and its own line`);
      const colours = await page.evaluate((tab) => [document.querySelector('#editor .cm-mapped'), document.querySelector(`#${tab}-view .cm-mapped`)].map((l) => getComputedStyle(l).backgroundColor), tab);
      assert.equal(colours[0], colours[1], 'the same colour');
      assert.notEqual(colours[0], 'rgba(0, 0, 0, 0)');
    }
    // And back: the pointer on a case highlights its statement.
    const target = page.locator(`#${tab}-view .cm-line`, { hasText: caseLine('30', '30. t;0,-1!10').trim() });
    await target.hover();
    await page.waitForFunction(() => document.querySelector('#editor .cm-mapped')?.textContent === '30. t;0,-1!10', null, WAIT);
    assert.deepEqual(await mappedLines(page, '#editor'), ['30. t;0,-1!10'], `${tab}: hovering case 30 highlights its line`);
    // Hovering a statement highlights its case.
    await page.locator('#editor .cm-line').nth(lineOf('14. out;1,0?14') - 1).hover({ position: { x: 4, y: 4 } });
    await page.waitForFunction(([tab, want]) => [...document.querySelectorAll(`#${tab}-view .cm-line.cm-mapped`)].some((l) => l.textContent === want), [tab, caseLine('14', '14. out;1,0?14')], WAIT);
    if (tab === 'c') {
      await page.locator('#editor .cm-line').nth(lineOf('11. b;0,-1!30') - 1).click({ position: { x: 4, y: 4 } });
      await page.mouse.move(0, 0);
      await page.locator('#c-view .cm-line.cm-mapped').first().waitFor();
      // docs/images/playground-mapped-c.png is a copy of it.
      await page.screenshot({ path: path.join(shots, 'playground-mapped-c.png') });
    }
    // One click unfolds the runtime.
    await page.$eval(`#${tab}-view .cm-scroller`, (s) => (s.scrollTop = 0));
    await page.locator(`#${tab}-view .runtime-fold`).first().click();
    assert.equal(await page.locator(`#${tab}-view .runtime-fold`).count(), 0, `${tab}: unfolded`);
    await page.$eval(`#${tab}-view .cm-scroller`, (s) => (s.scrollTop = 0));
    const runtimeLine = tab === 'c' ? 'icp2c C prelude' : 'mod icp_rt {';
    await page.locator(`#${tab}-view .cm-line`, { hasText: runtimeLine }).first().waitFor(WAIT);
  }
  // Finvara and CHEG: their markers name the source line.
  for (const [file, line] of [
    ['add.fin', 26],
    ['kqk.cheg', 23],
  ]) {
    await page.selectOption('#example', file);
    await page.click('[data-tab=c]');
    await page.locator('#editor .cm-line').nth(line - 1).click({ position: { x: 4, y: 4 } });
    const want = new RegExp(`^    case \\d+: /\\* (line )?${line}: `);
    await page.waitForFunction((re) => [...document.querySelectorAll('#c-view .cm-line.cm-mapped')].some((l) => new RegExp(re).test(l.textContent)), want.source, WAIT);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('fast to first use: a loading state until the compiler is ready, the .wasm preloaded and fetched once', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const warnings = [];
  page.on('console', (m) => warnings.push(m.text()));
  const wasmRequests = [];
  page.on('request', (r) => r.url().endsWith('/icp2c.wasm') && wasmRequests.push(r.url()));
  // The compiler arrives late: the page says what it loads, buttons off.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/icp2c.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url);
  await page.waitForSelector('#status');
  const loading = await page.evaluate(() => ({
    status: document.getElementById('status').textContent,
    state: document.getElementById('status').dataset.state,
    disabled: ['run', 'debug', 'share', 'example', 'lang'].filter((id) => document.getElementById(id).disabled),
    preload: [...document.querySelectorAll('link[rel=preload]')].map((l) => [l.getAttribute('href'), l.getAttribute('as'), l.hasAttribute('crossorigin')]),
  }));
  assert.equal(loading.state, 'loading');
  assert.match(loading.status, /Loading the compiler \(icp2c\.wasm/);
  assert.deepEqual(loading.disabled, ['run', 'debug', 'share', 'example', 'lang'], 'every control that needs the compiler is off');
  assert.deepEqual(loading.preload, [['icp2c.wasm', 'fetch', true]]);
  release();
  await page.evaluate(() => window.playground.ready);
  const ready = await page.evaluate(() => ({
    state: document.getElementById('status').dataset.state,
    disabled: ['run', 'debug', 'share', 'example', 'lang'].filter((id) => document.getElementById(id).disabled),
  }));
  assert.notEqual(ready.state, 'loading');
  assert.deepEqual(ready.disabled, [], 'all on once it is ready');
  assert.equal(wasmRequests.length, 1, `the preload is the page's one download: ${wasmRequests}`);
  assert.ok(!warnings.some((w) => /preload/i.test(w)), `no unused-preload warning: ${warnings.join('; ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

/** WCAG contrast of two computed colours. */
function contrast(a, b) {
  const luminance = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test('readable: resizable panes, a dark theme that keeps the board readable, each language linked to its reference', async () => {
  const page = await open();
  // The drag handle, by pointer and by keyboard.
  const width = () => page.$eval('#left', (e) => e.getBoundingClientRect().width);
  const before = await width();
  const handle = await page.locator('#splitter').boundingBox();
  await page.mouse.move(handle.x + handle.width / 2, handle.y + 100);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 + 200, handle.y + 100, { steps: 5 });
  await page.mouse.up();
  const dragged = await width();
  assert.ok(Math.abs(dragged - before - 200) < 30, `dragged 200 px: ${before} -> ${dragged}`);
  await page.focus('#splitter');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const keyed = await width();
  assert.ok(keyed < dragged - 100, `two ArrowLeft presses narrow it: ${dragged} -> ${keyed}`);
  assert.equal(await page.getAttribute('#splitter', 'role'), 'separator');

  // Each language's reference, next to the picker, a file the repository has.
  for (const [lang, doc] of [
    ['icp', 'infchesspro'],
    ['fin', 'finvara'],
    ['cheg', 'cheg'],
  ]) {
    await page.evaluate((lang) => window.playground.setSource('', lang), lang);
    const href = await page.getAttribute('#lang-doc', 'href');
    assert.equal(href, `https://github.com/icp2c/icp2c/blob/main/docs/${doc}.md`);
    assert.ok(fs.existsSync(path.join(root, 'docs', `${doc}.md`)), doc);
  }
  await page.close();

  // Dark: the page, the editor and the output are dark; the board keeps
  // its squares and its pieces, labels and text stand out.
  const dark = await open();
  await dark.emulateMedia({ colorScheme: 'dark' });
  await dark.selectOption('#example', 'multiply.icp');
  await dark.click('#debug');
  await settled(dark);
  await stepTo(dark, 11);
  const look = await dark.evaluate(() => {
    const css = (sel, prop = 'color') => getComputedStyle(document.querySelector(sel))[prop];
    return {
      body: css('body', 'backgroundColor'),
      text: css('body'),
      editor: css('#editor .cm-editor', 'backgroundColor'),
      editorText: css('#editor .cm-content'),
      light: css('#board .sq.light', 'backgroundColor'),
      dark: css('#board .sq.dark', 'backgroundColor'),
      stroke: css('#board .piece.w', 'webkitTextStrokeColor'),
      label: css('#board .label'),
      step: css('#editor .cm-step-line'),
      stepBg: css('#editor .cm-step-line', 'backgroundColor'),
      trace: css('#step-trace'),
      traceBg: css('#step-trace', 'backgroundColor'),
    };
  });
  const luminous = (c) => contrast(c, 'rgb(0, 0, 0)');
  assert.ok(luminous(look.body) < 1.6, `a dark page: ${look.body}`);
  assert.ok(luminous(look.editor) < 1.6, `a dark editor: ${look.editor}`);
  assert.ok(contrast(look.text, look.body) >= 7, `text ${look.text} on ${look.body}`);
  assert.ok(contrast(look.editorText, look.editor) >= 7, `editor text ${look.editorText} on ${look.editor}`);
  assert.ok(contrast(look.label, look.body) >= 4.5, `board labels ${look.label} on ${look.body}`);
  assert.ok(contrast(look.step, look.stepBg) >= 4.5, `the step's source line ${look.step} on ${look.stepBg}`);
  assert.ok(contrast(look.trace, look.traceBg) >= 4.5, `the step's line ${look.trace} on ${look.traceBg}`);
  assert.equal(look.light, 'rgb(240, 217, 181)', 'light squares as in daylight');
  assert.equal(look.dark, 'rgb(181, 136, 99)', 'dark squares as in daylight');
  for (const square of [look.light, look.dark]) {
    assert.ok(contrast(look.stroke, square) >= 3, `white pieces' outline ${look.stroke} on ${square}`);
  }
  await dark.click('[data-tab=c]');
  await dark.screenshot({ path: path.join(shots, 'dark-c.png') });
  await dark.click('[data-tab=board]');
  await dark.screenshot({ path: path.join(shots, 'dark-board.png') });
  assert.deepEqual(dark.errors, []);
  await dark.close();
});

test('small screens: at 390 px wide nothing scrolls sideways', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.evaluate(() => window.playground.ready);
  /** What sticks out past the right edge, for the message. */
  const wide = () =>
    page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      culprits: [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 391 && e.getClientRects().length)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${[...e.classList].join('.')} ${Math.round(e.getBoundingClientRect().right)}`),
    }));
  const check = async (what) => {
    const w = await wide();
    assert.ok(w.width <= 390, `${what}: scrollWidth ${w.width} > 390 (${w.culprits.join(', ')})`);
  };
  await check('the page as it opens');
  await page.click('#share');
  await page.waitForFunction(() => !document.getElementById('share-link').hidden, null, WAIT);
  await check('with the share link shown');
  await page.fill('#max-steps', 'abc');
  await check("with Max steps' message");
  await page.fill('#max-steps', '');
  await page.selectOption('#example', 'multiply.icp');
  await page.click('#debug');
  await settled(page);
  await stepTo(page, 11);
  await check('the board of multiply.icp');
  for (const tab of ['c', 'rust', 'output']) {
    await page.click(`[data-tab=${tab}]`);
    await check(`the ${tab} tab`);
  }
  await page.evaluate(() => window.playground.setSource('1. a=R0,0\n2. a;zz\n', 'icp', 'bad.icp'));
  await page.waitForSelector('#diagnostics li');
  await check('diagnostics');
  await page.selectOption('#example', 'kqk.cheg');
  await page.click('#run');
  await settled(page);
  await check('a CHEG query and its answer');
  await page.screenshot({ path: path.join(shots, 'small-screen.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
