"""What the rendered Kubernetes manifests must hold, beyond the schemas (scripts/check-deploy.sh).

usage: check_deploy.py OVERLAY RENDERED.yaml OUT_DIR
Writes OUT_DIR/gateway.toml and OUT_DIR/gateway.env (the config and the secrets the pods would get)
for `portal-gateway check-config`. Exits 1 naming every broken rule.
"""
import base64
import re
import sys
import tomllib

import yaml

LABELS = [f"app.kubernetes.io/{k}" for k in ("name", "instance", "part-of", "managed-by", "version")]
MIB = 1024 * 1024


def quantity(text):
    units = {"Ki": 1024, "Mi": MIB, "Gi": 1024 * MIB}
    for suffix, factor in units.items():
        if str(text).endswith(suffix):
            return int(str(text)[: -len(suffix)]) * factor
    return int(text)


def duration(text):
    match = re.fullmatch(r"(\d+)(ms|s|m)", text)
    value, unit = int(match.group(1)), match.group(2)
    return value / 1000 if unit == "ms" else value * (60 if unit == "m" else 1)


def main(overlay, rendered, out_dir):
    docs = [d for d in yaml.safe_load_all(open(rendered, encoding="utf-8")) if d]
    problems = []

    def need(ok, what):
        if not ok:
            problems.append(what)

    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)
        labels = doc["metadata"].get("labels", {})
        for label in LABELS:
            need(label in labels, f"{doc['kind']}/{doc['metadata']['name']}: label {label}")

    for deployment in by_kind.get("Deployment", []):
        name = deployment["metadata"]["name"]
        pod = deployment["spec"]["template"]["spec"]
        security = pod.get("securityContext", {})
        need(security.get("runAsNonRoot") is True, f"{name}: runAsNonRoot")
        need(security.get("seccompProfile", {}).get("type") == "RuntimeDefault", f"{name}: seccomp RuntimeDefault")
        need(pod.get("automountServiceAccountToken") is False, f"{name}: no service account token")
        for container in pod["containers"]:
            image = container["image"]
            need(re.search(r"/[^/]+:\d[\w.\-]*$", image) is not None, f"{name}: image {image} pinned to a version tag")
            c = container.get("securityContext", {})
            need(c.get("readOnlyRootFilesystem") is True, f"{name}: readOnlyRootFilesystem")
            need(c.get("allowPrivilegeEscalation") is False, f"{name}: allowPrivilegeEscalation false")
            need(c.get("capabilities", {}).get("drop") == ["ALL"], f"{name}: drop ALL capabilities")
            need("memory" in container.get("resources", {}).get("limits", {}), f"{name}: a memory limit")

    gateway = next(d for d in by_kind["Deployment"] if d["metadata"]["name"] == "portal-gateway")
    spec = gateway["spec"]
    pod = spec["template"]["spec"]
    container = pod["containers"][0]
    selector = spec["selector"]["matchLabels"]
    need(spec["replicas"] >= 2, "gateway: at least 2 replicas")
    need(spec["strategy"]["rollingUpdate"]["maxUnavailable"] == 0, "gateway: rolling update keeps every replica")
    need(container["readinessProbe"]["httpGet"]["path"] == "/readyz", "gateway: readiness on /readyz")
    need(container["livenessProbe"]["httpGet"]["path"] == "/healthz", "gateway: liveness on /healthz")
    need(len(pod.get("topologySpreadConstraints", [])) >= 1, "gateway: topology spread")
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    mounts = {m["name"]: m for m in container["volumeMounts"]}
    need("subPath" not in mounts["config"], "gateway: config mounted whole (a subPath never updates)")

    config_maps = {c["metadata"]["name"]: c for c in by_kind["ConfigMap"]}
    config_name = next(v["configMap"]["name"] for v in pod["volumes"] if v["name"] == "config")
    config_text = config_maps[config_name]["data"]["gateway.toml"]
    config = tomllib.loads(config_text)
    drain = duration(config.get("server", {}).get("shutdown_timeout", "25s"))
    need(pod["terminationGracePeriodSeconds"] >= pre_stop + drain,
         f"gateway: grace {pod['terminationGracePeriodSeconds']} s covers preStop {pre_stop} s + drain {drain} s")
    max_bytes = config.get("cache", {}).get("max_bytes", 64 * MIB)
    limit = quantity(container["resources"]["limits"]["memory"])
    need(limit >= max_bytes + 96 * MIB,
         f"gateway: memory limit {limit // MIB} MiB holds cache.max_bytes {max_bytes // MIB} MiB + 96 MiB")
    need(quantity(container["resources"]["requests"]["memory"]) <= limit, "gateway: request within limit")

    def selects(match):
        return all(selector.get(k) == v for k, v in match.items()) and match

    hpa = by_kind.get("HorizontalPodAutoscaler", [])
    need(any(h["spec"]["scaleTargetRef"]["name"] == "portal-gateway" and h["spec"]["minReplicas"] >= 2 for h in hpa),
         "gateway: an autoscaler with at least 2 replicas")
    need(any(selects(p["spec"]["selector"]["matchLabels"]) for p in by_kind.get("PodDisruptionBudget", [])),
         "gateway: a disruption budget")
    need(any(selects(n["spec"]["podSelector"]["matchLabels"]) for n in by_kind.get("NetworkPolicy", [])),
         "gateway: a network policy")
    need(any(selects(s["spec"]["selector"]) for s in by_kind.get("Service", [])), "gateway: a Service")

    secrets = by_kind.get("Secret", [])
    if overlay == "production":
        need(not secrets, "production: no Secret in the repository (created by reference)")
    secret_name = next(e["valueFrom"]["secretKeyRef"]["name"] for e in container["env"] if "valueFrom" in e)
    values = {}
    for secret in secrets:
        if secret["metadata"]["name"] == secret_name:
            values = {k: base64.b64decode(v).decode() for k, v in secret.get("data", {}).items()}
    env_lines = []
    for env in container["env"]:
        ref = env.get("valueFrom", {}).get("secretKeyRef")
        if not ref:
            continue
        # Production's Secret is made elsewhere: stand-ins of the right form.
        value = values.get(ref["key"]) or {
            "redis-url": "redis://:stand-in-password@10.30.0.5:6379/0",
        }.get(ref["key"], "stand-in-secret-value-0123456789")
        env_lines.append(f"{env['name']}={value}")
    need(all(k in config_text for k in ("[cache.shared]",)), f"{overlay}: the shared cache tier is configured")

    open(f"{out_dir}/gateway.toml", "w", encoding="utf-8").write(config_text)
    open(f"{out_dir}/gateway.env", "w", encoding="utf-8").write("\n".join(env_lines) + "\n")
    for problem in problems:
        print(f"check-deploy: {overlay}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
