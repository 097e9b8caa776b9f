#!/usr/bin/env node
// `npx ddbd ...`: runs the binary of this platform's package with the same arguments, standard
// streams and exit status; a signal sent to this process is passed on.
'use strict';
const { spawn } = require('node:child_process');
const { binaryPath } = require('../index.js');

let binary;
try {
  binary = binaryPath();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
