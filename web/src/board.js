// The board view: a recorded run (web/wasm `record`) replayed forwards and
// backwards, and drawn. InfChessPro's board is unbounded, so it is drawn
// with folded axes: the rows and columns that hold pieces, the few squares
// between close ones, and a fold (⋮ ⋯) for every longer gap, each labelled
// with its coordinate. Finvara's grid is drawn whole, with its holes and
// both stacks. CHEG's position is an 8×8 diagram.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Gaps up to this many squares are drawn; longer ones are folded. */
const DRAWN_GAP = 3n;
/** Past this many rows or columns the view lists the pieces only. */
const MOST_DRAWN = 64;

const CHESS = {
  w: { k: '♔', q: '♕', r: '♖', b: '♗', n: '♘', p: '♙' },
  b: { k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' },
};

const big = (v) => BigInt(v);

/** A recording and the step it is at: `at` steps applied (0 = the start).
 * A debugged run's (web/wasm `debug`) grows as it runs: `extend` adds the
 * steps of each stop, and only the last `keep` are kept (`first` counts
 * those dropped, folded into the board at the start). */
export class Replay {
  constructor(recording, language, outputBytes = null) {
    this.rec = recording;
    this.language = language;
    this.at = 0;
    this.first = 0;
    /** `(end) => the output's bytes up to end`, for a run whose output the
     * page holds elsewhere (a debugged run's is streamed). */
    this.outputBytes = outputBytes;
    /** square key "r,c" → {r, c, content} */
    this.squares = new Map();
    for (const [r, c, content] of recording.start) this.put(big(r), big(c), content);
    this.output = outputBytes ? null : encoder.encode(recording.stdout);
  }

  /** Adds the steps a debugged run sent at a stop (web/wasm `advance`):
   * after the ones held, or, with `start`, in their place. Moves to the
   * last step, keeping at most `keep` steps. */
  extend(answer, keep) {
    this.rec.contents.push(...answer.contents);
    if (answer.start) {
      this.rec.start = answer.start;
      this.rec.steps = answer.steps;
      this.first = answer.first;
      this.at = 0;
      this.squares = new Map();
      for (const [r, c, content] of this.rec.start) this.put(big(r), big(c), content);
    } else {
      this.seek(this.length);
      for (const step of answer.steps) this.rec.steps.push(step);
    }
    this.seek(this.length);
    const drop = this.length - keep;
    if (drop > 0) {
      // Fold the oldest steps into the board at the start.
      const start = new Map();
      for (const [r, c, content] of this.rec.start) start.set(`${big(r)},${big(c)}`, [r, c, content]);
      for (const step of this.rec.steps.slice(0, drop)) {
        const q = step[3];
        for (let i = 0; i < q.length; i += 4) {
          const key = `${big(q[i])},${big(q[i + 1])}`;
          if (q[i + 3] === 0) start.delete(key);
          else start.set(key, [q[i], q[i + 1], q[i + 3]]);
        }
      }
      this.rec.start = [...start.values()];
      this.rec.steps.splice(0, drop);
      this.first += drop;
      this.at -= drop;
    }
  }

  get length() {
    return this.rec.steps.length;
  }

  put(r, c, content) {
    const key = `${r},${c}`;
    if (content === 0) this.squares.delete(key);
    else this.squares.set(key, { r, c, content });
  }

  apply(step, forwards) {
    const q = step[3];
    for (let i = 0; i < q.length; i += 4) {
      this.put(big(q[i]), big(q[i + 1]), forwards ? q[i + 3] : q[i + 2]);
    }
  }

  /** Moves to `n` steps applied, forwards or backwards. */
  seek(n) {
    n = Math.max(0, Math.min(this.length, n));
    const steps = this.rec.steps;
    while (this.at < n) this.apply(steps[this.at++], true);
    while (this.at > n) this.apply(steps[--this.at], false);
  }

  /** The step last applied, or null at the start. */
  get step() {
    return this.at > 0 ? this.rec.steps[this.at - 1] : null;
  }

  /** The squares the last step changed, as keys. */
  get changed() {
    const out = new Set();
    const step = this.step;
    if (!step) return out;
    const q = step[3];
    for (let i = 0; i < q.length; i += 4) out.add(`${big(q[i])},${big(q[i + 1])}`);
    return out;
  }

  /** Standard output as written when the last step ended. */
  get outputSoFar() {
    const step = this.step;
    const end = step ? step[2] : 0;
    return decoder.decode(this.outputBytes ? this.outputBytes(end) : this.output.subarray(0, end));
  }

  /** The pieces, sorted by name, then row, then column (as `--board` lists them). */
  pieces() {
    const out = [];
    for (const sq of this.squares.values()) {
      const content = this.rec.contents[sq.content];
      if (Array.isArray(content)) out.push({ ...sq, side: content[0], symbol: content[1], name: content[2] });
    }
    const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    out.sort((a, b) => cmp(a.name, b.name) || cmp(a.r, b.r) || cmp(a.c, b.c));
    return out;
  }
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

/** The glyph a piece is drawn with on a board: the solid symbol for both
 * sides, white ones filled white with a dark outline (style.css), so that
 * a white piece is as solid on a light square as a black one (the outline
 * symbols ♔…♙ let the square show through). Lists keep `glyph`'s. */
const SOLID = CHESS.b;
const NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

function boardPiece(side, symbol) {
  return el('span', {
    class: `piece ${side}`,
    text: SOLID[symbol] || symbol,
    'data-piece': `${side}${symbol}`,
    'aria-label': `${side === 'w' ? 'white' : 'black'} ${NAMES[symbol] || symbol}`,
  });
}

/** A piece's glyph: a chess symbol for InfChessPro, the kind's own
 * letter for Finvara (its kinds are the program's own, §2). */
function glyph(language, content) {
  const [side, symbol] = content;
  if (language === 'icp') return CHESS[side][symbol] || symbol;
  return side === 'w' ? symbol.toUpperCase() : symbol;
}

/** The drawn coordinates of an axis holding `values` (sorted BigInts):
 * each value, the squares of short gaps, a fold for long ones, and one
 * square of margin on each side. */
function axis(values) {
  const out = [];
  if (values.length === 0) return out;
  out.push({ value: values[0] - 1n });
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) {
      const prev = values[i - 1];
      if (v - prev > DRAWN_GAP + 1n) out.push({ fold: v - prev - 1n });
      else for (let x = prev + 1n; x < v; x++) out.push({ value: x });
    }
    out.push({ value: v });
  }
  out.push({ value: values[values.length - 1] + 1n });
  return out;
}

const uniqueSorted = (xs) => [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Draws an InfChessPro board into `container`. */
function drawUnbounded(container, replay) {
  const squares = [...replay.squares.values()];
  if (squares.length === 0) {
    container.append(el('p', { class: 'empty-board', text: 'The board is empty.' }));
    return;
  }
  const rows = axis(uniqueSorted(squares.map((s) => s.r))).reverse();
  const cols = axis(uniqueSorted(squares.map((s) => s.c)));
  if (rows.length > MOST_DRAWN || cols.length > MOST_DRAWN) {
    container.append(
      el('p', { class: 'empty-board', text: `Too many rows or columns to draw (${rows.length} × ${cols.length}): the pieces are listed below.` }),
    );
    return;
  }
  const changed = replay.changed;
  const grid = el('div', { class: 'grid unbounded' });
  grid.style.gridTemplateColumns = `auto ${cols.map((c) => (c.fold ? '1.1em' : 'var(--sq)')).join(' ')}`;
  grid.style.gridTemplateRows = `${rows.map((r) => (r.fold ? '1.1em' : 'var(--sq)')).join(' ')} auto`;
  for (const row of rows) {
    grid.append(el('div', { class: 'label row-label', text: row.fold ? '⋮' : String(row.value), title: row.fold ? `${row.fold} rows folded` : '' }));
    for (const col of cols) {
      if (row.fold || col.fold) {
        grid.append(el('div', { class: 'fold', title: row.fold ? `${row.fold} rows folded` : `${col.fold} columns folded` }));
        continue;
      }
      const key = `${row.value},${col.value}`;
      const dark = ((row.value + col.value) % 2n + 2n) % 2n === 0n;
      const cell = el('div', { class: `sq ${dark ? 'dark' : 'light'}${changed.has(key) ? ' changed' : ''}`, 'data-square': key });
      const sq = replay.squares.get(key);
      if (sq) {
        const content = replay.rec.contents[sq.content];
        cell.append(boardPiece(content[0], content[1]));
        if (content[2]) cell.append(el('span', { class: 'name', text: content[2] }));
        cell.title = `${content[2]} (${row.value},${col.value})`;
      }
      grid.append(cell);
    }
  }
  grid.append(el('div'));
  for (const col of cols) {
    const text = col.fold ? '⋯' : String(col.value);
    grid.append(el('div', { class: `label col-label${text.length > 3 ? ' long' : ''}`, text, title: col.fold ? `${col.fold} columns folded` : '' }));
  }
  container.append(grid);
}

/** Finvara's row names: 1 → a, 26 → z, 27 → aa (§3). */
function rowLetters(row) {
  let out = '';
  while (row > 0) {
    row -= 1;
    out = String.fromCharCode(97 + (row % 26)) + out;
    row = Math.floor(row / 26);
  }
  return out;
}

/** Draws a Finvara grid into `container`. */
function drawGrid(container, replay) {
  const { width, height } = replay.rec;
  const changed = replay.changed;
  const grid = el('div', { class: 'grid finvara' });
  grid.style.gridTemplateColumns = `auto repeat(${width}, var(--sq))`;
  for (let r = height; r >= 1; r--) {
    grid.append(el('div', { class: 'label row-label', text: rowLetters(r) }));
    for (let c = 1; c <= width; c++) {
      const key = `${r},${c}`;
      const sq = replay.squares.get(key);
      const content = sq ? replay.rec.contents[sq.content] : null;
      const hole = content === 'hole';
      const cell = el('div', {
        class: `sq ${(r + c) % 2 === 0 ? 'dark' : 'light'}${hole ? ' hole' : ''}${changed.has(key) ? ' changed' : ''}`,
        'data-square': `${rowLetters(r)}${c}`,
      });
      if (Array.isArray(content)) {
        cell.append(el('span', { class: `piece fin ${content[0]}`, text: glyph('fin', content) }));
        cell.title = `${content[1]}${content[0] === 'w' ? 'W' : 'B'} on ${rowLetters(r)}${c}`;
      } else if (hole) {
        cell.title = `hole ${rowLetters(r)}${c}`;
      }
      grid.append(cell);
    }
  }
  grid.append(el('div'));
  for (let c = 1; c <= width; c++) grid.append(el('div', { class: 'label col-label', text: String(c) }));
  container.append(grid);
}

/** Draws the replay's board and lists its pieces (and Finvara's stacks). */
export function drawReplay({ board, pieces, stacks }, replay) {
  board.replaceChildren();
  if (replay.rec.width > 0) drawGrid(board, replay);
  else drawUnbounded(board, replay);

  const list = replay.pieces();
  const body = el('tbody');
  for (const p of list) {
    const square = replay.language === 'fin' ? `${rowLetters(Number(p.r))}${p.c}` : `(${p.r},${p.c})`;
    body.append(
      el(
        'tr',
        {},
        el('td', { class: 'name', text: p.name || '' }),
        el('td', { class: 'piece-cell', text: glyph(replay.language, [p.side, p.symbol]), title: `${p.side === 'w' ? 'white' : 'black'} ${p.symbol}` }),
        el('td', { class: 'square', text: square }),
      ),
    );
  }
  const head = el('thead', {}, el('tr', {}, el('th', { text: replay.language === 'fin' ? '' : 'name' }), el('th', { text: 'piece' }), el('th', { text: 'square' })));
  pieces.replaceChildren(head, body);
  pieces.dataset.count = String(list.length);

  stacks.replaceChildren();
  const step = replay.step;
  if (replay.language === 'fin') {
    const both = step && step[4] ? step[4] : [[0, []], [0, []]];
    for (const [i, side] of ['White', 'Black'].entries()) {
      const [depth, top] = both[i];
      const more = depth > top.length ? '… ' : '';
      stacks.append(el('div', { class: 'stack', 'data-side': side.toLowerCase() }, el('b', { text: `${side}'s stack` }), ` (${depth}): [${more}${top.join(' ')}]`));
    }
  }
}

/** Draws a chess position (web/wasm `position`) with the best move's
 * squares marked. `best` is a UCI move (`e1d1`) or null. */
export function drawPosition(container, position, best) {
  container.replaceChildren();
  if (!position.ok) {
    container.append(el('p', { class: 'error', text: position.error }));
    return;
  }
  const at = new Map(position.pieces.map(([sq, letter]) => [sq, letter]));
  const marked = new Set();
  if (best && /^[a-h][1-8][a-h][1-8]/.test(best)) {
    for (const s of [best.slice(0, 2), best.slice(2, 4)]) marked.add((s.charCodeAt(1) - 49) * 8 + (s.charCodeAt(0) - 97));
  }
  const grid = el('div', { class: 'grid chess' });
  grid.style.gridTemplateColumns = 'auto repeat(8, var(--sq))';
  for (let rank = 7; rank >= 0; rank--) {
    grid.append(el('div', { class: 'label row-label', text: String(rank + 1) }));
    for (let file = 0; file < 8; file++) {
      const sq = rank * 8 + file;
      const name = String.fromCharCode(97 + file) + (rank + 1);
      const cell = el('div', { class: `sq ${(rank + file) % 2 === 0 ? 'dark' : 'light'}${marked.has(sq) ? ' changed' : ''}`, 'data-square': name });
      const letter = at.get(sq);
      if (letter) {
        const side = letter === letter.toUpperCase() ? 'w' : 'b';
        cell.append(boardPiece(side, letter.toLowerCase()));
      }
      grid.append(cell);
    }
  }
  grid.append(el('div'));
  for (let file = 0; file < 8; file++) grid.append(el('div', { class: 'label col-label', text: String.fromCharCode(97 + file) }));
  container.append(grid, el('p', { class: 'side', text: `${position.side === 'w' ? 'White' : 'Black'} to move` }));
}
