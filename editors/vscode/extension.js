// The icp2c extension: starts `<icp2c.server.path> lsp`, the icp2c language
// server, over standard input and output for InfChessPro (.icp), Finvara
// (.fin) and CHEG (.cheg) documents. Colouring comes from the TextMate
// grammars in syntaxes/; everything else (diagnostics, hover, completion,
// definition, references, rename, symbols, semantic tokens, folding, code
// actions, formatting) comes from the server.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, RevealOutputChannelOn } = require('vscode-languageclient/node');

const LANGUAGES = ['infchesspro', 'finvara', 'cheg'];

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let output;
/** Serialises starts and stops, so that quick setting changes cannot race. */
let queue = Promise.resolve();

/** The configured executable, `~` and `${workspaceFolder}` expanded. */
function configuredPath() {
  let p = vscode.workspace.getConfiguration('icp2c').get('server.path', 'icp2c');
  p = (typeof p === 'string' ? p : '').trim() || 'icp2c';
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (folder) p = p.replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath);
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  // A relative path with a directory part is relative to the workspace.
  if (!path.isAbsolute(p) && p.includes('/') && folder) p = path.join(folder.uri.fsPath, p);
  return p;
}

function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `command` would be found: itself when it names a file, else the
 * first match on PATH (with PATHEXT on Windows). `undefined` if nowhere.
 */
function resolveExecutable(command) {
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT || '.EXE;.CMD;.BAT').split(';')] : [''];
  if (path.isAbsolute(command) || command.includes('/') || command.includes('\\')) {
    return exts.map((e) => command + e).find(isExecutableFile);
  }
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const found = exts.map((e) => path.join(dir, command + e)).find(isExecutableFile);
    if (found) return found;
  }
  return undefined;
}

function cannotStart(command, reason) {
  const message =
    `icp2c: cannot start the language server \`${command} lsp\`: ${reason}. ` +
    'Install icp2c (cargo install --path . in its checkout) or set "icp2c.server.path" to the icp2c executable.';
  if (output) output.appendLine(message);
  vscode.window.showErrorMessage(message, 'Open Settings', 'Show Output').then((choice) => {
    if (choice === 'Open Settings') {
      vscode.commands.executeCommand('workbench.action.openSettings', 'icp2c.server.path');
    } else if (choice === 'Show Output' && output) {
      output.show(true);
    }
  });
}

async function startClient() {
  const command = configuredPath();
  const executable = resolveExecutable(command);
  if (!executable) {
    cannotStart(command, path.isAbsolute(command) ? 'no executable file there' : 'not found on PATH');
    return;
  }
  const serverOptions = {
    // No `transport`: the client would append `--stdio`. `icp2c lsp` speaks
    // LSP on its standard input and output.
    command: executable,
    args: ['lsp'],
  };
  const clientOptions = {
    documentSelector: LANGUAGES.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };
  // The id `icp2c` makes the client read the `icp2c.trace.server` setting.
  const next = new LanguageClient('icp2c', 'icp2c language server', serverOptions, clientOptions);
  try {
    await next.start();
    client = next;
  } catch (err) {
    cannotStart(command, (err && err.message) || String(err));
    try {
      await next.dispose();
    } catch {
      // already stopped
    }
  }
}

async function stopClient() {
  const old = client;
  client = undefined;
  if (old) {
    try {
      await old.stop();
    } catch {
      // a server that died already
    }
  }
}

/** Stops the running server (if any) and starts a new one. */
function restart() {
  queue = queue.then(stopClient).then(startClient);
  return queue;
}

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  output = vscode.window.createOutputChannel('icp2c');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('icp2c.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('icp2c.server.path')) restart();
    }),
  );
  return restart();
}

function deactivate() {
  queue = queue.then(stopClient);
  return queue;
}

module.exports = { activate, deactivate, configuredPath, resolveExecutable };
