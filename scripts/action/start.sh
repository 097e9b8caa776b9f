#!/usr/bin/env bash
# The action's start step: ddbd in the background on 127.0.0.1:DDBD_ACTION_PORT with the inputs'
# flags, healthy before the step ends; exports AWS_ENDPOINT_URL_DYNAMODB (which the AWS SDKs and
# CLI read) and the outputs endpoint and port, and saves the pid for the post step.
set -euo pipefail
home="${RUNNER_TEMP:?}/ddbd"
binary="$(cat "$home/binary")"
port="${DDBD_ACTION_PORT:-8000}"
args=(--host 127.0.0.1 --port "$port" --port-file "$home/port")
[ -n "${DDBD_ACTION_DB_PATH:-}" ] && args+=(--db-path "$DDBD_ACTION_DB_PATH")
while IFS= read -r seed; do
  [ -n "$seed" ] && args+=(--seed "$seed")
done <<<"${DDBD_ACTION_SEED:-}"
# The extra flags split into words as xargs splits them (quotes keep words together); nothing
# in them is evaluated.
if [ -n "${DDBD_ACTION_ARGS:-}" ]; then
  mapfile -t extra < <(printf '%s' "$DDBD_ACTION_ARGS" | xargs -n 1 printf '%s\n')
  args+=("${extra[@]}")
fi
rm -f "$home/port"
nohup "$binary" "${args[@]}" >"$home/ddbd.log" 2>&1 &
pid=$!
echo "pid=$pid" >>"${GITHUB_STATE:?}"
for _ in $(seq 1 300); do
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$home/ddbd.log"
    echo "::error::ddbd exited before it was healthy"
    exit 1
  fi
  if [ -s "$home/port" ] && "$binary" health --port "$(cat "$home/port")" >/dev/null 2>&1; then
    bound="$(cat "$home/port")"
    echo "AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:$bound" >>"${GITHUB_ENV:?}"
    { echo "endpoint=http://127.0.0.1:$bound"; echo "port=$bound"; } >>"${GITHUB_OUTPUT:?}"
    echo "ddbd serves on http://127.0.0.1:$bound (pid $pid, log $home/ddbd.log)"
    exit 0
  fi
  sleep 0.1
done
cat "$home/ddbd.log"
echo "::error::ddbd was not healthy within 30 s"
exit 1
