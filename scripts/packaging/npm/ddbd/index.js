// The ddbd npm package: the path of this platform's binary, and startDdbd() for test suites.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

// The binary ships in an optional dependency per platform (ddbd-linux-x64, ddbd-linux-arm64):
// npm installs the one whose os and cpu match, nothing is downloaded by an install script.
// DDBD_BINARY names another binary instead.
function binaryPath() {
  if (process.env.DDBD_BINARY) return process.env.DDBD_BINARY;
  const name = `ddbd-${process.platform}-${process.arch}`;
  let binary;
  try {
    binary = require.resolve(`${name}/bin/ddbd`);
  } catch {
    throw new Error(
      `ddbd: no binary for ${process.platform}-${process.arch}: the package ${name} is not ` +
        'installed (ddbd ships for linux-x64 and linux-arm64; was it installed with ' +
        '--no-optional or --omit=optional?)');
  }
  try {
    fs.accessSync(binary, fs.constants.X_OK);
  } catch {
    fs.chmodSync(binary, 0o755);  // a package manager that dropped the mode
  }
  return binary;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// GET /_ddbd/health: 200 once ddbd takes requests (503 while a --db-path cannot take writes).
function healthy(host, port) {
  return new Promise((resolve) => {
    const request = http.get({ host, port, path: '/_ddbd/health', timeout: 1000 }, (answer) => {
      answer.resume();
      resolve(answer.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

// Starts ddbd and resolves once it is healthy, to { endpoint, port, process, stop() }.
// Options: port (0, the default, picks a free one), host ('127.0.0.1'), seed (a path or a list:
// --seed), dbPath (--db-path; in memory without), args (more flags, as ddbd takes them),
// logLevel ('warn'), binary (another ddbd), timeoutMs (10000, to be healthy).
// ddbd gets a pipe on its standard input and --stop-when-stdin-closes: when this process ends,
// even killed, the pipe closes and ddbd stops. stop() stops it sooner.
async function startDdbd(options = {}) {
  const host = options.host ?? '127.0.0.1';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ddbd-'));
  const portFile = path.join(directory, 'port');
  const args = ['--host', host, '--port', String(options.port ?? 0), '--port-file', portFile,
                '--log-level', options.logLevel ?? 'warn', '--stop-when-stdin-closes'];
  for (const seed of [].concat(options.seed ?? [])) args.push('--seed', seed);
  if (options.dbPath) args.push('--db-path', options.dbPath);
  args.push(...(options.args ?? []));
  const child = spawn(options.binary ?? binaryPath(), args, {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  child.stdin.on('error', () => {});
  // Neither the pipe nor the process keeps the test runner alive.
  child.stdin.unref?.();
  child.unref();
  let exited = null;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => {
    exited = { code, signal };
    fs.rmSync(directory, { recursive: true, force: true });
    resolve();
  }));
  const stop = async () => {
    if (exited === null) {
      child.kill('SIGTERM');
      await exit;
    }
  };
  const deadline = Date.now() + (options.timeoutMs ?? 10000);
  let port = 0;
  while (true) {
    if (exited !== null) {
      throw new Error(`ddbd exited before it was healthy (${exited.signal ?? `status ${exited.code}`})`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('ddbd was not healthy in time');
    }
    if (!port) {
      try {
        port = Number(fs.readFileSync(portFile, 'utf8')) || 0;
      } catch {}
    }
    if (port && (await healthy(host, port))) break;
    await sleep(5);
  }
  const endpointHost = host.includes(':') ? `[${host}]` : host;
  return { endpoint: `http://${endpointHost}:${port}`, port, process: child, stop };
}

module.exports = { binaryPath, startDdbd };
