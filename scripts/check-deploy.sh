#!/usr/bin/env bash
# `make test-deploy`: renders every Kubernetes overlay with kustomize (kubectl's), validates the
# output against the Kubernetes schemas offline (kubernetes-validate, pinned, in target/py-venv) for
# the oldest and newest versions we support, checks the rules of scripts/check_deploy.py, loads each
# overlay's gateway.toml with the real binary (`portal-gateway check-config`, with the Secret's
# values), renders each overlay again with the monitoring component (PrometheusRule, ServiceMonitor:
# checked by check_deploy.py --monitoring, as their CRDs are not in the Kubernetes schemas), and
# verifies the systemd unit with systemd-analyze when it is there.
set -euo pipefail
cd "$(dirname "$0")/.."
KUBERNETES_VALIDATE=1.37.0
VERSIONS=(1.30.0 1.37.0)
venv=target/py-venv
out=target/deploy
scripts/ensure-system-deps.sh python3-venv kubernetes-client:kubectl
if ! "$venv/bin/pip" show kubernetes-validate 2>/dev/null | grep -qx "Version: $KUBERNETES_VALIDATE"; then
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "kubernetes-validate==$KUBERNETES_VALIDATE"
fi
binary=$(realpath -m "${CARGO_TARGET_DIR:-target}")/release/portal-gateway
cargo build --release --workspace --locked -q --bin portal-gateway
rm -rf "$out" && mkdir -p "$out"
for overlay in deploy/kubernetes/overlays/*/; do
  name=$(basename "$overlay")
  mkdir -p "$out/$name"
  kubectl kustomize "$overlay" > "$out/$name/all.yaml"
  for version in "${VERSIONS[@]}"; do
    "$venv/bin/kubernetes-validate" --strict --quiet -k "$version" "$out/$name/all.yaml"
  done
  "$venv/bin/python" scripts/check_deploy.py "$name" "$out/$name/all.yaml" "$out/$name"
  # The config as the pods get it: the file plus the Secret's values in the environment.
  (set -a; . "$out/$name/gateway.env"; set +a
   "$binary" check-config --config "$out/$name/gateway.toml" >/dev/null)
  echo "check-deploy: $name: $(grep -c '^kind:' "$out/$name/all.yaml") resources valid for Kubernetes ${VERSIONS[*]}, rules kept, config loads"
  # The overlay as an operator opts into the monitoring component (deploy/kubernetes/components).
  mkdir -p "$out/$name/monitoring"
  { echo "apiVersion: kustomize.config.k8s.io/v1beta1"
    echo "kind: Kustomization"
    sed -n 's/^namespace: */namespace: /p' "$overlay/kustomization.yaml"
    echo "resources: [../../../../$overlay]"
    echo "components: [../../../../deploy/kubernetes/components/monitoring]"
  } > "$out/$name/monitoring/kustomization.yaml"
  kubectl kustomize "$out/$name/monitoring" > "$out/$name/with-monitoring.yaml"
  "$venv/bin/python" scripts/check_deploy.py --monitoring "$name" "$out/$name/all.yaml" "$out/$name/with-monitoring.yaml"
  echo "check-deploy: $name + components/monitoring: PrometheusRule (= deploy/monitoring/rules.yml) and ServiceMonitor well-formed, nothing else changed"
done
if command -v systemd-analyze >/dev/null; then
  unit="$out/portal-gateway.service"
  sed "s#/usr/local/bin/portal-gateway#$binary#" deploy/systemd/portal-gateway.service > "$unit"
  report=$(systemd-analyze verify --man=no "$unit" 2>&1) || { echo "$report"; exit 1; }
  if [ -n "$report" ]; then echo "$report"; exit 1; fi
  echo "check-deploy: systemd unit verified"
else
  echo "check-deploy: systemd-analyze not found; the systemd unit was not verified"
fi
