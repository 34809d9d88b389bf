// The playground's examples menu, written as JSON on standard output when
// run (web/build.sh), imported by the browser test (web/test.mjs): every
// program of examples/ with the input its own comment shows. The input of
// an InfChessPro example is the NAME.in beside it; otherwise the first
// `printf 'X' | icp2c run` or `icp2c run … <<< X` in its comment. A CHEG
// example gets the position and depth of its first `--fen "F"` line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's examples/ folder. */
export const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples');
const order = { icp: 0, fin: 1, cheg: 2 };

function inputOf(file, text) {
  const ext = path.extname(file).slice(1);
  const beside = path.join(dir, file.replace(/\.[^.]+$/, '.in'));
  if (ext === 'icp' && fs.existsSync(beside)) return fs.readFileSync(beside, 'utf8');
  const printf = /printf '([^']*)' \| icp2c run/.exec(text);
  if (printf) return printf[1].replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  const here = /icp2c run \S+ <<< (?:'([^']*)'|(\S+))/.exec(text);
  if (here) return `${here[1] ?? here[2]}\n`;
  return '';
}

/** The examples, InfChessPro first, then Finvara, then CHEG, by name:
 * `{file, lang, source, input}`, and `fen` and `depth` for CHEG. */
export function examples() {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.(icp|fin|cheg)$/.test(f))
    .map((file) => {
      const lang = path.extname(file).slice(1);
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      const example = { file, lang, source, input: lang === 'cheg' ? '' : inputOf(file, source) };
      if (lang === 'cheg') {
        const line = source.split('\n').find((l) => /--fen "[^"]+"/.test(l));
        if (line) {
          example.fen = /--fen "([^"]+)"/.exec(line)[1];
          const depth = /--depth (\d+)/.exec(line);
          if (depth) example.depth = Number(depth[1]);
        }
      }
      return example;
    })
    .sort((a, b) => order[a.lang] - order[b.lang] || (a.file < b.file ? -1 : 1));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${JSON.stringify(examples(), null, 1)}\n`);
}
