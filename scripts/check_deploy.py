"""What the rendered Kubernetes manifests must hold, beyond the schemas (scripts/check-deploy.sh).

usage: check_deploy.py OVERLAY RENDERED.yaml OUT_DIR
       check_deploy.py --monitoring OVERLAY RENDERED.yaml WITH_COMPONENT.yaml
Writes OUT_DIR/gateway.toml and OUT_DIR/gateway.env (the config and the secrets the pods would get)
for `portal-gateway check-config`. With --monitoring: the overlay rendered with the monitoring
component (deploy/kubernetes/components/monitoring) against the overlay alone: the component adds a
PrometheusRule and a ServiceMonitor and changes nothing else; both are checked against the Prometheus
Operator's monitoring.coreos.com/v1 structure (their CRDs are not in the Kubernetes schemas), the rule
against deploy/monitoring/rules.yml, the monitor against the gateway's Service. Exits 1 naming every
broken rule.
"""
import base64
import re
import sys
import tomllib
from pathlib import Path

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
    render = config.get("render", {})
    engines = render.get("threads", 2) * render.get("memory_limit", 64 * MIB)
    limit = quantity(container["resources"]["limits"]["memory"])
    # The search index (docs/operations.md, "Memory and size"): its live articles in memory at most
    # `max_memory_bytes`, a third more while deleted ones wait for a merge, and the writer's
    # buffer. Counted whatever `mode` says: a reload may turn the index on.
    search = config.get("search", {})
    index = search.get("max_memory_bytes", 64 * MIB) * 4 // 3 + search.get("writer_memory", 32 * MIB)
    # The cache full costs more than the bytes it weighs: 64 MiB of 60 KB articles took the process
    # 100 MiB past the same walk with an 8 MiB cache (`make test-hostile`, the index case).
    cache = max_bytes * 8 // 5
    # The cache, every render engine at its limit, the index, and the process itself (57 MiB
    # ready, 72-86 MiB under load in `make bench`): what the config allows must fit, or a busy
    # pod is killed.
    need(limit >= cache + engines + index + 64 * MIB,
         f"gateway: memory limit {limit // MIB} MiB holds cache.max_bytes {max_bytes // MIB} MiB at 8/5"
         f" + render engines {engines // MIB} MiB + the search index {index // MIB} MiB + 64 MiB")
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


DURATION = re.compile(r"^((\d+)(ms|s|m|h|d|w|y))+$")
DNS_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
METRIC_NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
RULES_YML = Path(__file__).resolve().parent.parent / "deploy/monitoring/rules.yml"


def seconds(text):
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}
    return sum(int(n) * units[u] for _, n, u in re.findall(r"((\d+)(ms|s|m|h|d|w|y))", text))


def check_monitoring(overlay, rendered, with_component):
    """The monitoring component on top of OVERLAY: what it adds, checked for structure and meaning."""
    plain = [d for d in yaml.safe_load_all(open(rendered, encoding="utf-8")) if d]
    docs = [d for d in yaml.safe_load_all(open(with_component, encoding="utf-8")) if d]
    problems = []

    def need(ok, what):
        if not ok:
            problems.append(what)

    added = [d for d in docs if str(d.get("apiVersion", "")).startswith("monitoring.coreos.com/")]
    key = lambda d: (d["kind"], d["metadata"]["name"])  # noqa: E731
    rest = sorted((d for d in docs if d not in added), key=key)
    need(rest == sorted(plain, key=key), "the component changes resources other than its own")
    kinds = sorted(d["kind"] for d in added)
    need(kinds == ["PrometheusRule", "ServiceMonitor"], f"the component adds {kinds}, not a PrometheusRule and a ServiceMonitor")
    gateway = next(d for d in plain if d["kind"] == "Deployment" and d["metadata"]["name"] == "portal-gateway")
    namespace = gateway["metadata"].get("namespace")
    services = [d for d in plain if d["kind"] == "Service"]

    def is_map_of_strings(value):
        return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())

    for doc in added:
        what = f"{doc['kind']}/{doc['metadata'].get('name')}"
        need(doc["apiVersion"] == "monitoring.coreos.com/v1", f"{what}: apiVersion monitoring.coreos.com/v1")
        need(set(doc) <= {"apiVersion", "kind", "metadata", "spec"}, f"{what}: unknown top-level fields {sorted(set(doc) - {'apiVersion', 'kind', 'metadata', 'spec'})}")
        need(DNS_NAME.match(doc["metadata"].get("name", "")) is not None, f"{what}: metadata.name a DNS name")
        need(doc["metadata"].get("namespace") == namespace, f"{what}: in the gateway's namespace {namespace}")
        labels = doc["metadata"].get("labels", {})
        need(is_map_of_strings(labels), f"{what}: labels are strings")
        for label in LABELS:
            need(label in labels, f"{what}: label {label}")
        need(isinstance(doc.get("spec"), dict), f"{what}: a spec")

    for rule in (d for d in added if d["kind"] == "PrometheusRule"):
        spec = rule.get("spec", {})
        need(set(spec) <= {"groups"}, f"PrometheusRule: unknown spec fields {sorted(set(spec) - {'groups'})}")
        groups = spec.get("groups") or []
        need(isinstance(groups, list) and groups, "PrometheusRule: spec.groups a non-empty list")
        names = [g.get("name") for g in groups]
        need(len(set(names)) == len(names), "PrometheusRule: group names unique")
        for group in groups:
            g = f"PrometheusRule group {group.get('name')!r}"
            need(isinstance(group.get("name"), str) and group["name"], f"{g}: a name")
            need(set(group) <= {"name", "interval", "rules", "partial_response_strategy", "limit", "query_offset"},
                 f"{g}: unknown fields {sorted(set(group) - {'name', 'interval', 'rules', 'partial_response_strategy', 'limit', 'query_offset'})}")
            need("interval" not in group or DURATION.match(str(group["interval"])) is not None, f"{g}: interval a duration")
            need(isinstance(group.get("rules"), list) and group["rules"], f"{g}: rules a non-empty list")
            for r in group.get("rules") or []:
                name = r.get("record") or r.get("alert")
                w = f"{g} rule {name!r}"
                need(("record" in r) != ("alert" in r), f"{w}: exactly one of record and alert")
                need(set(r) <= {"record", "alert", "expr", "for", "keep_firing_for", "labels", "annotations"},
                     f"{w}: unknown fields {sorted(set(r) - {'record', 'alert', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations'})}")
                need(isinstance(r.get("expr"), str) and r["expr"].strip(), f"{w}: expr a non-empty string")
                need("for" not in r or DURATION.match(str(r["for"])) is not None, f"{w}: for a duration")
                need(is_map_of_strings(r.get("labels", {})) and all(LABEL_NAME.match(k) for k in r.get("labels", {})),
                     f"{w}: labels a map of label names to strings")
                if "record" in r:
                    need(METRIC_NAME.match(r["record"]) is not None, f"{w}: record a metric name")
                    need("annotations" not in r and "for" not in r, f"{w}: a recording rule has no for or annotations")
                else:
                    need(is_map_of_strings(r.get("annotations", {})), f"{w}: annotations a map of strings")
                    need(r.get("labels", {}).get("severity") in ("critical", "warning", "info"), f"{w}: a severity label")
        expected = yaml.safe_load(RULES_YML.read_text(encoding="utf-8"))["groups"]
        need(groups == expected, "PrometheusRule: spec.groups differ from deploy/monitoring/rules.yml "
                                 "(python3 scripts/check_monitoring.py sync)")

    for monitor in (d for d in added if d["kind"] == "ServiceMonitor"):
        spec = monitor.get("spec", {})
        known = {"selector", "endpoints", "namespaceSelector", "jobLabel", "targetLabels", "podTargetLabels",
                 "sampleLimit", "attachMetadata"}
        need(set(spec) <= known, f"ServiceMonitor: unknown spec fields {sorted(set(spec) - known)}")
        match = spec.get("selector", {}).get("matchLabels", {})
        need(is_map_of_strings(match) and match, "ServiceMonitor: spec.selector.matchLabels")
        endpoints = spec.get("endpoints") or []
        need(isinstance(endpoints, list) and endpoints, "ServiceMonitor: spec.endpoints a non-empty list")
        selected = [s for s in services if match and all(s["metadata"].get("labels", {}).get(k) == v for k, v in match.items())]
        need(len(selected) == 1 and selected[0]["metadata"]["name"] == "portal-gateway",
             f"ServiceMonitor: selects the Service portal-gateway alone (selects {[s['metadata']['name'] for s in selected]})")
        ports = {p.get("name") for s in selected for p in s["spec"]["ports"]}
        for endpoint in endpoints:
            known = {"port", "targetPort", "path", "scheme", "interval", "scrapeTimeout", "honorLabels",
                     "relabelings", "metricRelabelings", "params", "tlsConfig", "bearerTokenSecret", "authorization"}
            need(set(endpoint) <= known, f"ServiceMonitor endpoint: unknown fields {sorted(set(endpoint) - known)}")
            need(endpoint.get("port") in ports, f"ServiceMonitor endpoint: port {endpoint.get('port')!r} is a named port of the Service ({sorted(ports)})")
            need(endpoint.get("path") == "/metrics", "ServiceMonitor endpoint: path /metrics")
            need(endpoint.get("scheme", "http") in ("http", "https"), "ServiceMonitor endpoint: scheme http or https")
            for field in ("interval", "scrapeTimeout"):
                need(field not in endpoint or DURATION.match(str(endpoint[field])) is not None, f"ServiceMonitor endpoint: {field} a duration")
            if "interval" in endpoint and "scrapeTimeout" in endpoint:
                need(seconds(endpoint["scrapeTimeout"]) <= seconds(endpoint["interval"]), "ServiceMonitor endpoint: scrapeTimeout within interval")
        need(spec.get("jobLabel") is None, "ServiceMonitor: no jobLabel (the rules expect job=\"portal-gateway\", the Service's name)")

    for problem in problems:
        print(f"check-deploy: {overlay} + monitoring: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--monitoring"]:
        sys.exit(check_monitoring(*sys.argv[2:]))
    sys.exit(main(*sys.argv[1:]))
