// The action's post step (action.yml): stops the ddbd the main step started
// (scripts/action/stop.sh; the main step saved its pid as state, which arrives as STATE_pid).
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

try {
  execFileSync('bash', [path.join(__dirname, 'stop.sh')], {
    env: { ...process.env, DDBD_ACTION_PID: process.env.STATE_pid ?? '' },
    stdio: 'inherit',
  });
} catch (error) {
  console.log(`::warning::stopping ddbd: ${error.message}`);
}
