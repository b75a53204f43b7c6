#!/usr/bin/env bash
# The release build of the third-party crates (tantivy, QuickJS's C, tokio, hyper…), kept outside
# the clone and unpacked into a fresh one's target/ before `make test` builds: what CI caches for a
# Rust project keyed by its lockfile. The workspace's own crates are never kept: every run builds
# them, lints them and tests them from its sources.
#
#   scripts/rust-deps-cache.sh restore   before the first cargo command (make rust-prebuild)
#   scripts/rust-deps-cache.sh save      after that build worked, in the background
#
# Measured on 2026-12-08 (2 cores): a clean clone's test build took ~890 s of `make test`'s 1 734,
# of which the dependencies were about 800 of the 1 488 unit-seconds; with them unpacked (915 MB,
# 4 s alone) cargo found all 375 of them fresh and built the ten workspace packages only.
#
# Nothing is trusted that cargo would not trust itself: cargo's fingerprints decide, per crate,
# whether an unpacked artifact is used (a change of profile, features, flags or compiler makes it
# build that crate again). The key is the lockfile, every Cargo.toml (without comments), the
# compiler's version and RUSTFLAGS. One tar is kept (scripts/lib/install-cache.sh:
# INSTALL_CACHE_DIR picks the folder, INSTALL_CACHE_DIR=off turns it off), written only after a
# build that worked, and only from a target/ that started empty or from this cache (a developer's
# target/ holds stale versions of every crate and is never packed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/install-cache.sh

RELEASE=target/release
# Written by `restore` when target/release held no dependency yet: this tree may be packed.
FRESH=target/.rust-deps-cache-fresh

key() {
  {
    cat Cargo.lock
    # Their comments are not: editing one should not cost the next run the whole build.
    git ls-files -z '*Cargo.toml' 2>/dev/null | xargs -0 cat | sed -e 's/#.*//' -e '/^[[:space:]]*$/d'
    rustc -vV
    printf 'RUSTFLAGS=%s\n' "${RUSTFLAGS:-}${CARGO_ENCODED_RUSTFLAGS:-}"
  } | sha256sum | cut -c1-64
}

# The names the workspace's own artifacts start with: its packages (.fingerprint/, build/) and
# their targets (deps/: `lib<name>-<hash>.rlib`, `<name>-<hash>` test and bin executables).
workspace_names() {
  cargo metadata --no-deps --format-version 1 --offline | python3 -c '
import json, sys
names = set()
for package in json.load(sys.stdin)["packages"]:
    names.add(package["name"])
    for target in package["targets"]:
        names.update({target["name"], target["name"].replace("-", "_")})
print("\n".join(sorted(names)))'
}

# Every entry of deps/, build/ and .fingerprint/ that is not the workspace's, relative to RELEASE.
dependency_entries() {
  local patterns
  patterns="$(workspace_names | sed -e 's/.*/^&-/p' -e 's/^^/^lib/')"
  (cd "$RELEASE" && for dir in deps build .fingerprint; do
    [ -d "$dir" ] && ls -A "$dir" | grep -v -f <(printf '%s\n' "$patterns") | sed "s|^|$dir/|"
  done) || true
}

case "${1:-}" in
  restore)
    mkdir -p target
    if [ -n "$(ls -A "$RELEASE/deps" 2>/dev/null)" ]; then
      exit 0 # a tree that has built before: cargo's own state, left alone
    fi
    touch "$FRESH"
    if install_cache_restore rust-deps "$(key)" "$RELEASE"; then
      echo "rust-deps-cache: the dependencies' release build unpacked into $RELEASE"
    fi
    ;;
  save)
    [ -f "$FRESH" ] || exit 0
    dir="$(install_cache_dir)" || exit 0
    k="$(key)"
    [ -f "$dir/rust-deps-$k.tar" ] && exit 0
    mapfile -t entries < <(dependency_entries)
    [ "${#entries[@]}" -gt 0 ] || exit 0
    install_cache_save rust-deps "$k" "$RELEASE" "${entries[@]}"
    echo "rust-deps-cache: kept ${#entries[@]} entries of $RELEASE"
    # Once: a later build in this tree (a changed lockfile) leaves the old versions beside the new.
    rm -f "$FRESH"
    ;;
  *)
    echo "usage: $0 restore|save" >&2
    exit 2
    ;;
esac
