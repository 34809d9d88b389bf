// Times the playground beside the native icp2c, in one run (figures for
// docs/performance.md):
//
//   node bench.mjs [--icp2c PATH] [--chromium PATH] [--runs N]
//
// For each workload: the page's Run (or Debug) from the call to the last
// line shown, in headless Chromium, and `icp2c run` (or `run --trace`) as a
// process (its start included), each the median of N runs; and the size
// of icp2c.wasm and the page's load time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const dist = path.join(here, 'dist');
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const icp2c = option('--icp2c', path.join(root, 'target', 'release', 'icp2c'));
const runs = Number(option('--runs', '5'));
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const workloads = [
  { name: 'beer.icp, Run', file: 'beer.icp', how: 'run', args: [] },
  { name: 'countdown.icp <<< 300000, Run', file: 'countdown.icp', how: 'run', args: [], input: '300000\n' },
  { name: 'transfer.icp, Run (10^15 steps summarised)', file: 'transfer.icp', how: 'run', args: [] },
  { name: 'tour.cheg, Run (depth 4)', file: 'tour.cheg', how: 'run', args: ['--fen', '4k3/8/8/3r4/8/8/8/R3K3 w - - 0 1', '--depth', '4', '--trace'] },
  { name: 'multiply.icp 6×7, Debug to the end (41,418 steps)', file: 'multiply.icp', how: 'debugToEnd', args: ['--trace'] },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
const server = http
  .createServer((req, res) => {
    const wanted = new URL(req.url, 'http://localhost').pathname;
    const file = path.join(dist, wanted.endsWith('/') ? 'index.html' : path.normalize(wanted));
    fs.readFile(file, (err, data) => (err ? res.writeHead(404).end() : res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' }).end(data)));
  })
  .listen(0, '127.0.0.1');
await new Promise((resolve) => server.on('listening', resolve));
const browser = await chromium.launch({ executablePath: option('--chromium', '/usr/bin/chromium'), args: FLAGS });
const page = await browser.newPage();
const loadStart = Date.now();
await page.goto(`http://127.0.0.1:${server.address().port}/`);
await page.evaluate(() => window.playground.ready);
console.log(`page load to ready: ${Date.now() - loadStart} ms; icp2c.wasm ${fs.statSync(path.join(dist, 'icp2c.wasm')).size} bytes`);
console.log('| workload | page (ms) | icp2c (ms) | ratio |');
console.log('|---|---:|---:|---:|');
for (const w of workloads) {
  await page.selectOption('#example', w.file);
  if (w.input !== undefined) await page.fill('#input', w.input);
  const input = await page.inputValue('#input');
  const inPage = [];
  const native = [];
  for (let i = 0; i < runs; i++) {
    inPage.push(
      await page.evaluate(async (how) => {
        const t = performance.now();
        await window.playground[how]();
        return performance.now() - t;
      }, w.how),
    );
    const t = process.hrtime.bigint();
    spawnSync(icp2c, ['run', `examples/${w.file}`, ...w.args], { cwd: root, input, maxBuffer: 1 << 28 });
    native.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const [p, n] = [median(inPage), median(native)];
  console.log(`| ${w.name} | ${p.toFixed(0)} | ${n.toFixed(1)} | ${(p / n).toFixed(1)} |`);
}
await browser.close();
server.close();
