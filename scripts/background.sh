#!/usr/bin/env bash
# Runs a command in the background's place: a session of its own whose scheduling group is at nice
# 19, and the command itself at nice 19. `make test` starts its side work this way (the Strapi and
# Plone installs, the tools' build). With the kernel's autogroups (sched_autogroup_enabled, on on
# Debian and on the CI machine), the scheduler first shares the cores between sessions and only
# then between a session's processes by their nice values: a `nice -n 19` build in make's session
# took as much as the whole browser (Chromium starts in a session of its own) or the whole gateway
# under test, and a render of the native e2e pass ran past its second (2026-12-07). With its own
# group at nice 19 it takes what the others leave. Where autogroups are off, `nice` alone does it.
# Being a session of its own, it does not get a terminal's Ctrl-C: an interrupted `make test` leaves
# it to finish (each such job writes under target/ and holds a lock the next run waits on).
set -euo pipefail
exec setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null || true; exec nice -n 19 "$@"' background "$@"
