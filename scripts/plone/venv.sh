#!/usr/bin/env bash
# Plone from PyPI at the versions pinned in scripts/plone/requirements.txt, in a venv under
# target/plone-venv, kept between runs while the pins are the same. `make test` starts it in the
# background first (`plone-install`), so its minute of pip overlaps the Rust build; test-plone.sh
# runs it again, which waits for that run (a lock) and then finds the venv made.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=$PWD/target/plone-venv
mkdir -p target
exec 9>"$VENV.lock"
flock 9
pins=$(sha256sum scripts/plone/requirements.txt | cut -c1-16)
if [ "$(cat "$VENV/.pins" 2>/dev/null)" != "$pins" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  if ! "$VENV/bin/pip" install -q --disable-pip-version-check -r scripts/plone/requirements.txt >target/plone-pip.log 2>&1; then
    tail -20 target/plone-pip.log >&2
    echo "plone venv: pip install of Plone failed (target/plone-pip.log)" >&2
    exit 1
  fi
  echo "$pins" >"$VENV/.pins"
fi
