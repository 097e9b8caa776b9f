#!/usr/bin/env bash
# The action's install step: puts the ddbd release binary for this runner's architecture on the
# job's PATH. From DDBD_ACTION_ARCHIVE (an archive on the runner), or downloaded from the
# repository's release DDBD_ACTION_VERSION and checked against its SHA256SUMS.
set -euo pipefail
case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
  *) echo "::error::ddbd ships for Linux x86-64 and arm64, not $(uname -m)"; exit 1 ;;
esac
[ "$(uname -s)" = Linux ] || { echo "::error::ddbd ships for Linux runners only"; exit 1; }
home="${RUNNER_TEMP:?}/ddbd"
rm -rf "$home" && mkdir -p "$home"
archive="${DDBD_ACTION_ARCHIVE:-}"
if [ -z "$archive" ]; then
  version="${DDBD_ACTION_VERSION:?the version input is empty}"
  name="ddbd-$version-linux-$arch.tar.gz"
  base="${GITHUB_SERVER_URL:-https://github.com}/${DDBD_ACTION_REPOSITORY:-${GITHUB_ACTION_REPOSITORY:?}}/releases/download/v$version"
  curl -fsSL --retry 3 -o "$home/$name" "$base/$name"
  curl -fsSL --retry 3 -o "$home/SHA256SUMS" "$base/SHA256SUMS"
  (cd "$home" && grep " $name\$" SHA256SUMS | sha256sum -c --quiet -)
  archive="$home/$name"
fi
tar -xzf "$archive" -C "$home"
binary="$(echo "$home"/ddbd-*-linux-"$arch"/ddbd)"
[ -x "$binary" ] || { echo "::error::no linux-$arch binary in $archive"; exit 1; }
echo "$(dirname "$binary")" >>"${GITHUB_PATH:?}"
echo "$binary" >"$home/binary"
"$binary" --version
