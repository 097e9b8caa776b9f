// The action's main step (action.yml): installs the release binary for the runner's
// architecture and starts ddbd in the background (scripts/action/install.sh, start.sh).
// Inputs reach a JavaScript action as INPUT_<NAME> variables; the scripts take them as
// DDBD_ACTION_* (a shell variable cannot have a '-' in its name).
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const input = (name) => (process.env[`INPUT_${name.toUpperCase()}`] ?? '').trim();
const env = {
  ...process.env,
  DDBD_ACTION_VERSION: input('version'),
  DDBD_ACTION_ARCHIVE: input('archive'),
  DDBD_ACTION_PORT: input('port') || '8000',
  DDBD_ACTION_DB_PATH: input('db-path'),
  DDBD_ACTION_SEED: input('seed'),
  DDBD_ACTION_ARGS: input('args'),
};
try {
  for (const script of ['install.sh', 'start.sh']) {
    execFileSync('bash', [path.join(__dirname, script)], { env, stdio: 'inherit' });
  }
} catch (error) {
  console.log(`::error::ddbd did not start: ${error.message}`);
  process.exit(1);
}
