#!/usr/bin/env bash
# The action's post step: stops the ddbd the start step left running (SIGTERM: requests in
# flight finish, a --db-path is left consistent) and prints its log.
set -euo pipefail
pid="${DDBD_ACTION_PID:-}"
[ -n "$pid" ] || { echo "ddbd was not started"; exit 0; }
if kill "$pid" 2>/dev/null; then
  for _ in $(seq 1 150); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
fi
kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
log="${RUNNER_TEMP:?}/ddbd/ddbd.log"
[ -f "$log" ] && { echo "ddbd's log:"; cat "$log"; }
echo "ddbd stopped"
