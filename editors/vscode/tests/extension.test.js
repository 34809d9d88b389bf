// extension.js outside VS Code: the `vscode` module and the language
// client are stand-ins that record what the extension asks of them. Checks
// that it starts `<icp2c.server.path> lsp` for the three languages, says
// clearly when the executable cannot be started, and restarts the server
// when the setting changes. Run with `node --test tests/`.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');

/** A fresh stand-in world, and extension.js loaded against it. */
function load({ serverPath, startFails } = {}) {
  const world = {
    settings: { 'server.path': serverPath },
    errors: [],
    clients: [],
    commands: {},
    configListeners: [],
  };
  const vscode = {
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: (section) => ({
        get: (key, fallback) => {
          assert.strictEqual(section, 'icp2c');
          const v = world.settings[key];
          return v === undefined ? fallback : v;
        },
      }),
      onDidChangeConfiguration: (f) => {
        world.configListeners.push(f);
        return { dispose() {} };
      },
    },
    window: {
      createOutputChannel: (name) => ({ name, lines: [], appendLine(l) { this.lines.push(l); }, show() {}, dispose() {} }),
      showErrorMessage: (message) => {
        world.errors.push(message);
        return Promise.resolve(undefined);
      },
    },
    commands: {
      registerCommand: (name, f) => {
        world.commands[name] = f;
        return { dispose() {} };
      },
      executeCommand: () => Promise.resolve(),
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, started: false, stopped: false });
      world.clients.push(this);
    }
    async start() {
      if (startFails) throw new Error(startFails);
      this.started = true;
    }
    async stop() {
      this.stopped = true;
    }
    async dispose() {
      this.stopped = true;
    }
  }
  const stubs = {
    vscode,
    'vscode-languageclient/node': { LanguageClient, RevealOutputChannelOn: { Never: 4 } },
  };
  const file = require.resolve('../extension.js');
  delete require.cache[file];
  const originalLoad = Module._load;
  Module._load = function (request, ...rest) {
    if (Object.prototype.hasOwnProperty.call(stubs, request)) return stubs[request];
    return originalLoad.call(this, request, ...rest);
  };
  try {
    world.extension = require(file);
  } finally {
    Module._load = originalLoad;
  }
  world.context = { subscriptions: [] };
  return world;
}

const made = [];
test.after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A directory holding an executable `icp2c` that does nothing. */
function fakeServer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icp2c-ext-'));
  made.push(dir);
  const exe = path.join(dir, 'icp2c');
  fs.writeFileSync(exe, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return { dir, exe };
}

test('starts `<icp2c.server.path> lsp` for the three languages', async () => {
  const { exe } = fakeServer();
  const w = load({ serverPath: exe });
  await w.extension.activate(w.context);
  assert.strictEqual(w.errors.length, 0, w.errors.join('\n'));
  assert.strictEqual(w.clients.length, 1);
  const c = w.clients[0];
  assert.ok(c.started);
  assert.strictEqual(c.id, 'icp2c'); // so that `icp2c.trace.server` applies
  assert.strictEqual(c.serverOptions.command, exe);
  assert.deepStrictEqual(c.serverOptions.args, ['lsp']);
  assert.strictEqual(c.serverOptions.transport, undefined); // no `--stdio` appended
  const languages = new Set(c.clientOptions.documentSelector.map((s) => s.language));
  assert.deepStrictEqual([...languages].sort(), ['cheg', 'finvara', 'infchesspro']);
  await w.extension.deactivate();
  assert.ok(c.stopped);
});

test('the default `icp2c` is looked up on PATH', async () => {
  const { dir, exe } = fakeServer();
  const saved = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${saved}`;
  try {
    const w = load({});
    assert.strictEqual(w.extension.configuredPath(), 'icp2c');
    assert.strictEqual(w.extension.resolveExecutable('icp2c'), exe);
    await w.extension.activate(w.context);
    assert.strictEqual(w.clients[0].serverOptions.command, exe);
  } finally {
    process.env.PATH = saved;
  }
});

test('an executable that is not there gets a clear error, and no client', async () => {
  const missing = path.join(os.tmpdir(), 'no-such-dir', 'icp2c');
  const w = load({ serverPath: missing });
  await w.extension.activate(w.context);
  assert.strictEqual(w.clients.length, 0);
  assert.strictEqual(w.errors.length, 1);
  assert.match(w.errors[0], /cannot start the language server `.*no-such-dir\/icp2c lsp`/);
  assert.match(w.errors[0], /icp2c\.server\.path/);
});

test('a name not on PATH gets a clear error', async () => {
  const w = load({ serverPath: 'icp2c-surely-not-installed' });
  await w.extension.activate(w.context);
  assert.strictEqual(w.clients.length, 0);
  assert.match(w.errors[0], /`icp2c-surely-not-installed lsp`: not found on PATH/);
});

test('a server that fails to start gets a clear error', async () => {
  const { exe } = fakeServer();
  const w = load({ serverPath: exe, startFails: 'spawn EACCES' });
  await w.extension.activate(w.context);
  assert.strictEqual(w.errors.length, 1);
  assert.match(w.errors[0], /cannot start the language server .* spawn EACCES/);
});

test('changing icp2c.server.path restarts the server with the new path', async () => {
  const a = fakeServer();
  const b = fakeServer();
  const w = load({ serverPath: a.exe });
  await w.extension.activate(w.context);
  w.settings['server.path'] = b.exe;
  // An unrelated setting changes nothing.
  for (const f of w.configListeners) f({ affectsConfiguration: (s) => s === 'editor.fontSize' });
  assert.strictEqual(w.clients.length, 1);
  for (const f of w.configListeners) f({ affectsConfiguration: (s) => s === 'icp2c.server.path' || s === 'icp2c' });
  await w.commands['icp2c.restartServer'](); // waits for the queued restart too
  assert.strictEqual(w.clients.length, 3);
  assert.ok(w.clients[0].stopped);
  assert.strictEqual(w.clients[1].serverOptions.command, b.exe);
  assert.ok(w.clients[1].stopped);
  assert.ok(w.clients[2].started && !w.clients[2].stopped);
});
