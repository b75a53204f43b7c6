#!/usr/bin/env bash
# `make image`: the container images of deploy/Dockerfile with podman (or buildah), from make
# build's output (ARTIFACTS=prebuilt) on a Debian bookworm base made by debootstrap from the Debian
# archive (no container registry is reachable here), then a smoke run: reference-cms and the
# gateway from their images, the portal answering through them, as the unprivileged user, with no
# demo secret in the gateway image.
#
# Builds use chroot isolation: RUN steps need no OCI runtime, so they work where containers cannot
# be started (this kind of VM: crun refuses its hybrid cgroups, runc cannot set rlimits). Where
# `podman run` does not work, the smoke run starts the images' own files under chroot instead, as
# the images' user, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=0.1.0
BASE=localhost/rail-portal/debian-base:bookworm
GATEWAY=localhost/rail-portal/portal-gateway:$VERSION
CMS=localhost/rail-portal/reference-cms:$VERSION
scripts/ensure-system-deps.sh podman:podman debootstrap:debootstrap
engine=podman
if ! podman info >/dev/null 2>&1; then
  scripts/ensure-system-deps.sh buildah:buildah
  engine=buildah
  echo "image: podman does not run here ($(podman info 2>&1 | tail -1)); building with buildah"
fi

if ! $engine images --format '{{.Repository}}:{{.Tag}}' | grep -qx "$BASE"; then
  rootfs=target/image/rootfs
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  echo "image: debootstrap of Debian bookworm (minbase, ca-certificates) into $rootfs"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" http://deb.debian.org/debian >target/image/debootstrap.log
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | $engine import --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  rm -rf "$rootfs"
fi

revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
for target in reference-cms gateway; do
  tag=$CMS; [ "$target" = gateway ] && tag=$GATEWAY
  if [ "$engine" = podman ]; then
    podman build -q --isolation chroot -f deploy/Dockerfile --target "$target" --build-arg ARTIFACTS=prebuilt \
      --build-arg BASE_IMAGE="$BASE" --build-arg VERSION="$VERSION" --build-arg REVISION="$revision" \
      -t "$tag" . >/dev/null
  else
    buildah bud -q --isolation chroot -f deploy/Dockerfile --target "$target" --build-arg ARTIFACTS=prebuilt \
      --build-arg BASE_IMAGE="$BASE" --build-arg VERSION="$VERSION" --build-arg REVISION="$revision" \
      -t "$tag" . >/dev/null
  fi
  echo "image: $tag ($($engine images --format '{{.Size}}' "$tag" | head -1))"
done

[ "$engine" = podman ] || { echo "image: built; not run (podman does not run here)"; exit 0; }
user=$(podman inspect --format '{{.Config.User}}' "$GATEWAY")
[ "$user" = "65532:65532" ] || { echo "image: the gateway runs as '$user', not 65532"; exit 1; }
[ -n "$(podman inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}' "$GATEWAY")" ]
gateway_root=$(podman image mount "$GATEWAY")
cms_root=$(podman image mount "$CMS")
cleanup() {
  podman rm -f rp-smoke-cms rp-smoke-gateway >/dev/null 2>&1 || true
  [ -n "${pids:-}" ] && kill $pids 2>/dev/null || true
  podman image unmount "$GATEWAY" "$CMS" >/dev/null 2>&1 || true
}
trap cleanup EXIT
if grep -rq demo-secret-change-me "$gateway_root/etc/portal" "$gateway_root/srv/portal"; then
  echo "image: the demo secret is in the gateway image"; exit 1
fi
secret=image-smoke-secret-$RANDOM$RANDOM
cms_env=(REFERENCE_CMS_LISTEN=127.0.0.1:18591 REFERENCE_CMS_CLIENT_SECRET="$secret" REFERENCE_CMS_CONTENT_DIR=/srv/reference-cms/content)
gateway_env=(PORTAL__SERVER__LISTEN=127.0.0.1:18590 PORTAL__UPSTREAM__BASE_URL=http://127.0.0.1:18591/ PORTAL__UPSTREAM__CLIENT_SECRET="$secret")
if podman run --rm --network host "$GATEWAY" --help >/dev/null 2>&1; then
  how="podman run"
  podman run -d --name rp-smoke-cms --network host "${cms_env[@]/#/-e}" "$CMS" >/dev/null
  podman run -d --name rp-smoke-gateway --network host --read-only "${gateway_env[@]/#/-e}" "$GATEWAY" >/dev/null
else
  how="chroot into the images' files (podman cannot start containers here: $(podman run --rm "$GATEWAY" --help 2>&1 | tail -1 || true))"
  env -i "${cms_env[@]}" /usr/sbin/chroot --userspec=65532:65532 "$cms_root" /usr/local/bin/reference-cms >/dev/null 2>&1 &
  pids=$!
  env -i "${gateway_env[@]}" /usr/sbin/chroot --userspec=65532:65532 "$gateway_root" \
    /usr/local/bin/portal-gateway --config /etc/portal/gateway.toml >/dev/null 2>&1 &
  pids="$pids $!"
fi
for _ in $(seq 50); do curl -fs http://127.0.0.1:18590/readyz >/dev/null && break; sleep 0.2; done
curl -fs http://127.0.0.1:18590/portal/api/category/list | grep -q '"code":200'
curl -fs http://127.0.0.1:18590/portal/ | grep -q '<div id=root>'
echo "image: smoke run passed by $how: the portal and its API through both images, user 65532"
