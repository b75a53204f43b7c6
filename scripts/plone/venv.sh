#!/usr/bin/env bash
# Plone from PyPI at the versions pinned in scripts/plone/requirements.txt, in a venv under
# target/plone-venv, kept between runs while the pins are the same. `make test` starts it in the
# background first (`plone-install`), so its minute of pip overlaps the Rust build; test-plone.sh
# runs it again, which waits for that run (a lock) and then finds the venv made. A venv made
# before with the same pins and python is unpacked from the install cache instead
# (scripts/lib/install-cache.sh), its scripts pointed at where it now is.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../lib/install-cache.sh
source scripts/lib/install-cache.sh
VENV=$PWD/target/plone-venv
mkdir -p target
exec 9>"$VENV.lock"
flock 9
pins=$(sha256sum scripts/plone/requirements.txt | cut -c1-16)
[ "$(cat "$VENV/.pins" 2>/dev/null)" = "$pins" ] && exit 0

rm -rf "$VENV"
key=$({ cat scripts/plone/requirements.txt; python3 -c 'import sys; print(sys.version, sys.executable)'; } | sha256sum | cut -c1-64)
if install_cache_restore plone-venv "$key" "$VENV"; then
  # Its scripts name the folder it was made in (their `#!` lines): now this one.
  made_in=$(cat "$VENV/.made-in" 2>/dev/null || true)
  if [ -n "$made_in" ] && [ "$made_in" != "$VENV" ]; then
    grep -rlIF "$made_in" "$VENV/bin" | xargs -r sed -i "s#$made_in#$VENV#g" || true
  fi
  if [ "$(cat "$VENV/.pins" 2>/dev/null)" = "$pins" ] &&
    "$VENV/bin/python" -c "import importlib.metadata as m; m.version('Plone')" 2>/dev/null; then
    exit 0
  fi
  rm -rf "$VENV"
fi
python3 -m venv "$VENV"
if ! "$VENV/bin/pip" install -q --disable-pip-version-check -r scripts/plone/requirements.txt >target/plone-pip.log 2>&1; then
  tail -20 target/plone-pip.log >&2
  echo "plone venv: pip install of Plone failed (target/plone-pip.log)" >&2
  exit 1
fi
echo "$pins" >"$VENV/.pins"
echo "$VENV" >"$VENV/.made-in"
install_cache_save plone-venv "$key" "$VENV" .
