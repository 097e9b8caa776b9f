#!/usr/bin/env bash
# Starts a ddbd of its own for one test process and prints its endpoint: a free port (--port 0)
# written to a port file once the seed is loaded, so parallel test processes never collide and
# never see a half-loaded database. Stop it with: kill "$(cat "$DDBD_DIR/pid")"
#   endpoint=$(SEED=fixtures/ docs/examples/start-ddbd.sh)
set -euo pipefail
DDBD="${DDBD:-ddbd}"
export DDBD_DIR="${DDBD_DIR:-$(mktemp -d)}"
"$DDBD" --port 0 --port-file "$DDBD_DIR/port" --seed "${SEED:-fixtures}" --log-level warn &
echo $! >"$DDBD_DIR/pid"
until [ -s "$DDBD_DIR/port" ]; do
  kill -0 "$(cat "$DDBD_DIR/pid")" 2>/dev/null || exit 1  # it refused to start: see its stderr
  sleep 0.02
done
echo "http://127.0.0.1:$(cat "$DDBD_DIR/port")"
