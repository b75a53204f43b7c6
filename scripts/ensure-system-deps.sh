#!/usr/bin/env bash
# Installs Debian packages with apt-get when missing.
# usage: ensure-system-deps.sh [PACKAGE[:COMMAND]...]
#   PACKAGE:COMMAND counts as present when COMMAND is on the PATH (or in /usr/sbin), a bare PACKAGE
#   when dpkg knows it. Without arguments: what the browser tests need (chromium, CJK fonts).
set -euo pipefail
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(chromium:chromium fonts-noto-cjk)
missing=()
for spec in "${specs[@]}"; do
  package=${spec%%:*}
  if [ "$package" != "$spec" ]; then
    cmd=${spec#*:}
    command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] || missing+=("$package")
  else
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]} with apt-get"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
