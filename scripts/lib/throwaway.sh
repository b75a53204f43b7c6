# Sourced by the scripts that run a real CMS beside the gateway (test-wordpress.sh, test-plone.sh):
# the addresses they need free, the processes they start and end, waiting for one to answer, and
# failing with the logs that say why. The sourcing script defines `say` and sets T (its folder)
# and LOGS (the names of the logs in $T worth showing on a failure) first.

# Ends the script when one of the addresses (host:port) is already taken.
refuse_taken() {
  for addr in "$@"; do
    if (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null; then
      say "$addr is taken by another process; stop it first" >&2
      exit 1
    fi
  done
}

# Processes started here, each in its own session (its process group is its pid: `setsid … &`
# then `pids+=($!)`), ended on exit.
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

fail() {
  say "FAILED: $*" >&2
  for log in "${LOGS[@]}"; do
    if [ -s "$T/$log" ]; then
      printf '\n----- %s (last 40 lines) -----\n' "$T/$log" >&2
      tail -n 40 "$T/$log" >&2
    fi
  done
  exit 1
}

# Waits up to $1 seconds for the command that follows to succeed.
wait_for() {
  local seconds=$1
  shift
  local until=$(($(date +%s%N) + seconds * 1000000000))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s%N)" -lt "$until" ] || return 1
    sleep 0.1
  done
}
