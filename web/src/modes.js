// Syntax colouring for the three languages: CodeMirror stream modes, one
// line at a time, each after its language's reference (docs/infchesspro.md,
// docs/finvara.md, docs/cheg.md). They colour; the library checks.
import { StreamLanguage } from '@codemirror/language';

/** InfChessPro: `LABEL. COMMAND ?T !T`, `#` comment lines, `"text`. */
const infchesspro = {
  name: 'infchesspro',
  // `"text` runs to the end of the line: no quote to close.
  languageData: { closeBrackets: { brackets: [] }, commentTokens: { line: '#' } },
  startState: () => ({ at: 'label' }),
  token(stream, state) {
    if (stream.sol()) state.at = 'label';
    if (stream.eatSpace()) return null;
    if (state.at === 'text') {
      stream.skipToEnd();
      return 'string';
    }
    if (state.at === 'label') {
      if (stream.peek() === '#') {
        stream.skipToEnd();
        return 'comment';
      }
      state.at = 'command';
      if (stream.match(/^\d+\./)) return 'labelName';
    }
    if (stream.eat('"')) {
      state.at = 'text';
      return 'string';
    }
    if (stream.match(/^[?!]\s*(\d+|\*)/)) return 'labelName';
    if (stream.eat('^')) return 'keyword';
    if (stream.eat('*')) return 'atom';
    if (stream.eat('%')) return 'operator';
    if (stream.match(/^=\s*[KQRBNPkqrbnp]/)) return 'typeName';
    if (stream.match(/^[+-]?\d+/)) return 'number';
    if (stream.match(/^[^\s=,;?!*%"^]+/)) return 'variableName';
    stream.next();
    return 'punctuation';
  },
};

/** Finvara: `(s v): notation` definitions, the `+--+` / `|kW|` board,
 * `Turn n W: s a1 -> b2` moves, `#` comments. */
const finvara = {
  name: 'finvara',
  languageData: { closeBrackets: { brackets: ['(', '[', '{'] }, commentTokens: { line: '#' } },
  startState: () => ({ line: null }),
  token(stream, state) {
    if (stream.sol()) {
      stream.eatSpace();
      const c = stream.peek();
      state.line = c === '(' ? 'definition' : c === '+' || c === '|' ? 'board' : 'move';
    }
    if (stream.eatSpace()) return null;
    if (stream.peek() === '#' && state.line !== 'board') {
      stream.skipToEnd();
      return 'comment';
    }
    if (state.line === 'board') {
      if (stream.match('##')) return 'invalid';
      if (stream.match(/^[a-z][WB]/)) return 'typeName';
      if (stream.match(/^[+\-|]+/)) return 'meta';
      if (stream.peek() === '#') {
        stream.skipToEnd();
        return 'comment';
      }
      stream.next();
      return null;
    }
    if (state.line === 'definition') {
      if (stream.match(/^\(\s*[a-z](?=[\s):])/)) return 'typeName';
      if (stream.match(/^"[a-z]"/)) return 'string';
      if (stream.match(/^-?\d+/)) return 'number';
      if (stream.match(/^[a-z]+/)) return 'keyword';
      stream.next();
      return 'operator';
    }
    if (stream.match(/^Turn\b/)) return 'keyword';
    if (stream.match(/^(checks|turn)\b/)) return 'keyword';
    if (stream.match(/^[WBC](?=\s*:)/)) return 'atom';
    if (stream.match(/^[a-z]+\d+/)) return 'variableName';
    if (stream.match(/^[a-z](?=\s)/)) return 'typeName';
    if (stream.match(/^\d+/)) return 'number';
    if (stream.match('->')) return 'operator';
    stream.next();
    return 'punctuation';
  },
};

/** CHEG: `TAG:` in column one, an instruction, operands (`"literals`,
 * `#conditions`, variables), `;` comments. */
const cheg = {
  name: 'cheg',
  // `"T`, `"100`: a literal's quote is never closed.
  languageData: { closeBrackets: { brackets: ['('] }, commentTokens: { line: ';' } },
  startState: () => ({ op: false }),
  token(stream, state) {
    if (stream.sol()) {
      state.op = false;
      if (stream.match(/^[A-Za-z0-9.$%]+:/)) return 'labelName';
    }
    if (stream.eatSpace()) return null;
    if (stream.peek() === ';') {
      stream.skipToEnd();
      return 'comment';
    }
    if (!state.op && stream.match(/^[A-Za-z][A-Za-z0-9]*/)) {
      state.op = true;
      return 'keyword';
    }
    if (stream.match(/^"[^\s,;]*/)) return 'string';
    if (stream.match(/^#[^\s,;]*/)) return 'atom';
    if (stream.match(/^-?\d+\b/)) return 'number';
    if (stream.match(/^[A-Za-z0-9.$%]+/)) return 'variableName';
    stream.next();
    return 'punctuation';
  },
};

/** The editor's language support for an extension (`icp`, `fin`, `cheg`). */
export const modes = {
  icp: StreamLanguage.define(infchesspro),
  fin: StreamLanguage.define(finvara),
  cheg: StreamLanguage.define(cheg),
};
