# Sourced by the scripts that install a third-party CMS for the tests (strapi.sh: Strapi's
# node_modules; plone/venv.sh: Plone's venv). What an install made is kept outside the clone, as one
# tar per install key (the lockfile's or the pins' hash, with the node or python version), beside the
# package managers' own caches, and a later install with the same key unpacks it instead of
# installing again. npm ci of Strapi took 106 s and 131 s of CPU on 2026-12-07, pip of Plone 103 s
# and 85 s; unpacking either takes 4–9 s alone (~1 min of wall in the background of a clean
# clone's CI, most of it the kernel creating files). In `make test` those installs ran beside the
# Rust build, whose two cores they shared: on a clean clone their CPU was the run's.
#
# INSTALL_CACHE_DIR picks the folder (default: $XDG_CACHE_HOME or ~/.cache, then portal-gateway);
# INSTALL_CACHE_DIR=off installs every time. A tar is written only after its install worked and
# was checked, under a temporary name renamed into place; one tar is kept per name (the latest key).

install_cache_dir() {
  local dir="${INSTALL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/portal-gateway}"
  [ "$dir" = off ] && return 1
  printf '%s\n' "$dir"
}

# install_cache_restore NAME KEY PARENT: unpacks NAME's tar for KEY into PARENT (which then holds
# what install_cache_save packed). Fails, unpacking nothing, when there is none.
install_cache_restore() {
  local name="$1" key="$2" parent="$3" dir
  dir="$(install_cache_dir)" || return 1
  [ -f "$dir/$name-$key.tar" ] || return 1
  mkdir -p "$parent"
  tar -xf "$dir/$name-$key.tar" -C "$parent"
}

# install_cache_save NAME KEY PARENT ENTRY…: packs PARENT's ENTRYs as NAME's tar for KEY, and
# removes NAME's tars of other keys. A failure to write it is said and otherwise ignored.
install_cache_save() {
  local name="$1" key="$2" parent="$3" dir tmp
  shift 3
  dir="$(install_cache_dir)" || return 0
  mkdir -p "$dir" || return 0
  tmp="$(mktemp "$dir/.$name.XXXXXX")" || return 0
  if tar -cf "$tmp" -C "$parent" "$@" 2>/dev/null && mv -f "$tmp" "$dir/$name-$key.tar"; then
    find "$dir" -maxdepth 1 -name "$name-*.tar" ! -name "$name-$key.tar" -delete
  else
    rm -f "$tmp"
    echo "install cache: could not keep $name in $dir" >&2
  fi
}
