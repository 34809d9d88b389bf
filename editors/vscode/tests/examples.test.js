// Every program of the repository's examples/ and every program block of
// docs/{infchesspro,finvara,cheg}.md, but those written to show an error,
// is tokenized with the extension's grammars (vscode-textmate, as VS Code
// does): no token may be scoped invalid.*, and no non-blank text may be
// left with only source.* and meta.* scopes (uncoloured). Run with `node --test tests/`.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const here = path.resolve(__dirname, '..');
const repo = path.resolve(here, '..', '..');
const manifest = require(path.join(here, 'package.json'));

const languages = {
  icp: { scope: 'source.icp', doc: 'infchesspro.md' },
  fin: { scope: 'source.fin', doc: 'finvara.md' },
  cheg: { scope: 'source.cheg', doc: 'cheg.md' },
};
// Reference blocks that show compile errors on purpose (§8, §6).
const broken = new Set(['broken.icp', 'broken.fin', 'bad.cheg']);

async function registry() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const grammars = Object.fromEntries(
    manifest.contributes.grammars.map((g) => [g.scopeName, path.join(here, g.path)]),
  );
  return new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      const file = grammars[scopeName];
      if (!file) return null;
      return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
}

/** The programs to check: [name, extension, text]. */
function programs() {
  const out = [];
  for (const file of fs.readdirSync(path.join(repo, 'examples')).sort()) {
    const ext = path.extname(file).slice(1);
    if (languages[ext]) {
      out.push([`examples/${file}`, ext, fs.readFileSync(path.join(repo, 'examples', file), 'utf8')]);
    }
  }
  for (const [ext, { doc }] of Object.entries(languages)) {
    const text = fs.readFileSync(path.join(repo, 'docs', doc), 'utf8');
    // ```icp file=place.icp … ``` (indented blocks too)
    const block = /^( *)```(icp|fin|cheg) file=(\S+)\n([\s\S]*?)^\1```$/gm;
    for (const m of text.matchAll(block)) {
      if (m[2] !== ext || broken.has(m[3])) continue;
      const body = m[4].replace(new RegExp(`^${m[1]}`, 'gm'), '');
      out.push([`docs/${doc}: ${m[3]}`, ext, body]);
    }
  }
  return out;
}

test('the examples and the references colour without an invalid token', async (t) => {
  const reg = await registry();
  const found = programs();
  assert.ok(found.length >= 20, `only ${found.length} programs found`);
  for (const [name, ext, text] of found) {
    await t.test(name, async () => {
      const grammar = await reg.loadGrammar(languages[ext].scope);
      let state = vsctm.INITIAL;
      const problems = [];
      text.split('\n').forEach((line, i) => {
        const r = grammar.tokenizeLine(line, state);
        state = r.ruleStack;
        for (const tok of r.tokens) {
          const piece = line.slice(tok.startIndex, tok.endIndex);
          const bad = tok.scopes.find((s) => s.startsWith('invalid.'));
          if (bad) problems.push(`${i + 1}:${tok.startIndex + 1} ${JSON.stringify(piece)} is ${bad}`);
          else if (piece.trim() !== '' && tok.scopes.every((s) => /^(source|meta)\./.test(s))) {
            problems.push(`${i + 1}:${tok.startIndex + 1} ${JSON.stringify(piece)} is not coloured`);
          }
        }
      });
      assert.deepStrictEqual(problems, []);
    });
  }
});

test('the grammars flag what the references call errors', async () => {
  const reg = await registry();
  const cases = [
    ['source.icp', '1. ^ # note'], // §1: `#` after a command
    ['source.icp', '1 . ^'], // §1: blank before the label's dot
    ['source.fin', '|kW|zz|'], // §3: a bad cell
    ['source.cheg', '        ADDD A,"1,"2'], // §8: an unknown instruction
    ['source.cheg', '        CONDV NOPE,A,B'], // §4: an unknown condition
  ];
  for (const [scope, line] of cases) {
    const grammar = await reg.loadGrammar(scope);
    const { tokens } = grammar.tokenizeLine(line, vsctm.INITIAL);
    assert.ok(
      tokens.some((t) => t.scopes.some((s) => s.startsWith('invalid.'))),
      `${scope}: ${line} has no invalid token`,
    );
  }
});

test('each language comments lines with the token its grammar colours as a comment', async () => {
  const reg = await registry();
  for (const lang of manifest.contributes.languages) {
    const config = JSON.parse(fs.readFileSync(path.join(here, lang.configuration), 'utf8'));
    const token = config.comments.lineComment;
    const { scopeName } = manifest.contributes.grammars.find((g) => g.language === lang.id);
    const grammar = await reg.loadGrammar(scopeName);
    for (const line of [`${token} a comment`, `    ${token} an indented one`]) {
      const { tokens } = grammar.tokenizeLine(line, vsctm.INITIAL);
      const last = tokens[tokens.length - 1];
      assert.ok(last.scopes.some((s) => s.startsWith('comment.line.')), `${lang.id}: ${line}: ${last.scopes}`);
    }
    const ext = lang.extensions[0].slice(1);
    assert.strictEqual(languages[ext] && languages[ext].scope, scopeName, `${lang.id}: .${ext}`);
  }
});
