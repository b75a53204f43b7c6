"""The monitoring kit's own checks (scripts/check-monitoring.sh, `make test-monitoring`).

usage:
  check_monitoring.py sync            write the component's PrometheusRule from deploy/monitoring/rules.yml
  check_monitoring.py check METRICS   check the kit against METRICS, a gateway's /metrics text

`check` fails, naming each fault, when:
- deploy/kubernetes/components/monitoring/prometheusrule.yaml is not what `sync` writes (they drifted);
- an expression of rules.yml or of dashboard.json names a metric the scrape does not hold (histograms
  count as their `_bucket`, `_sum` and `_count` series), other than the recording rules' own names and
  the few series made outside the gateway listed in EXTERNAL;
- a matcher or a `by`/`on` clause names a label those metrics do not carry, or a matcher's value
  matches none the scrape shows (values that only appear on an event are listed in EVENT_ONLY);
- an alert lacks a `severity` label, a summary, a description or a runbook_url whose anchor is in
  docs/operations.md; or rules.test.yml has no test where it fires and none where it stays silent;
- a dashboard target does not use the datasource variable;
- a family has no `# HELP` line, or an enumerated label value has an uppercase letter.
"""
import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "deploy/monitoring/rules.yml"
TESTS = ROOT / "deploy/monitoring/rules.test.yml"
DASHBOARD = ROOT / "deploy/monitoring/dashboard.json"
OPERATIONS = ROOT / "docs/operations.md"
PROMETHEUS_RULE = ROOT / "deploy/kubernetes/components/monitoring/prometheusrule.yaml"

# Series the rules use that the gateway does not make, and who makes them.
EXTERNAL = {
    "up": "Prometheus (one per scrape target)",
    "kube_deployment_status_replicas_unavailable": "kube-state-metrics",
}
# Labels Prometheus adds to every series from the target (ServiceMonitor or static config).
TARGET_LABELS = {"job", "instance", "namespace", "pod", "service", "endpoint", "container"}
EXTERNAL_LABELS = {
    "kube_deployment_status_replicas_unavailable": {"deployment"},
}
# Label values that exist only once the event has happened (crates/content/src/envelope.rs, limit_label:
# the upstream ceiling and the concurrency bounds are not provoked by the check's short run).
EVENT_ONLY = {
    ("portal_rate_limited_total", "limit"): {"client", "upstream", "upstream_concurrency", "search_concurrency"},
    # A purge's origin: the check makes an admin purge (and the second replica's pubsub one).
    ("portal_cache_purges_total", "origin"): {"admin", "webhook", "pubsub", "reconnect", "search"},
    ("portal_cache_purged_entries_total", "origin"): {"admin", "webhook", "pubsub", "reconnect", "search"},
}
# Label values must be lowercase (Prometheus's convention): enumerations the gateway makes. An
# endpoint's or route's label is its path's spelling (`category/getParentCategory`) and is exempt.
PATH_LABELS = {"route", "endpoint"}
KEYWORDS = {
    "and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right", "offset",
    "bool", "inf", "nan", "Inf", "NaN",
}

HEADER = """\
# Generated from deploy/monitoring/rules.yml by `python3 scripts/check_monitoring.py sync`: edit that
# file, not this one (`make test-monitoring` fails when they differ; `make test-deploy` compares the
# rendered rule with it too).
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: portal-gateway
  labels:
    app.kubernetes.io/name: portal-gateway
    app.kubernetes.io/instance: portal
    app.kubernetes.io/part-of: rail-portal
    app.kubernetes.io/managed-by: kustomize
    app.kubernetes.io/version: "0.1.0"
    app.kubernetes.io/component: monitoring
spec:
"""


def prometheus_rule_text():
    """rules.yml's groups, comments and all, as the PrometheusRule's spec."""
    lines = RULES.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("groups:"))
    return HEADER + "".join(f"  {line}\n" if line else "\n" for line in lines[start:])


def parse_scrape(text):
    """{metric name: {label: {values}}} from the Prometheus text format."""
    series = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s", line)
        if not match:
            continue
        labels = series.setdefault(match.group(1), {})
        for name, value in re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', match.group(3) or ""):
            labels.setdefault(name, set()).add(value)
    return series


def selectors(expr):
    """(metric names with their matchers, label names of by/without/on/ignoring/group_* clauses)."""
    text = re.sub(r"#.*", "", expr)
    clauses = []
    for match in re.finditer(r"\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)", text):
        clauses += [label.strip() for label in match.group(2).split(",") if label.strip()]
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    found = []
    pattern = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*(\{(?:[^}"]|"(?:[^"\\]|\\.)*")*\})|"(?:[^"\\]|\\.)*"|\[[^\]]*\]')
    rest = []
    last = 0
    for match in pattern.finditer(text):
        rest.append(text[last:match.start()])
        last = match.end()
        if match.group(2) is None:
            continue  # a string or a range
        matchers = re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"', match.group(2))
        if match.group(1) and match.group(1) not in KEYWORDS:
            found.append((match.group(1), matchers))
        rest.append(" ")
    rest.append(text[last:])
    plain = "".join(rest)
    for match in re.finditer(r"(?<![\w$.])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\()?", plain):
        name, call = match.group(1), match.group(2)
        if call or name in KEYWORDS or re.fullmatch(r"\d+[smhdwy]", name):
            continue
        found.append((name, []))
    return found, clauses


def dashboard_queries(dashboard, problems):
    """(where, PromQL) for every target and template query; checks the datasource variable."""
    queries = []
    variables = {v["name"]: v for v in dashboard.get("templating", {}).get("list", [])}
    if not any(v.get("type") == "datasource" and v.get("query") == "prometheus" for v in variables.values()):
        problems.append("dashboard: no datasource variable of type prometheus")

    def uses_variable(datasource):
        uid = datasource.get("uid", "") if isinstance(datasource, dict) else str(datasource or "")
        return uid.startswith("$")

    def panels(items):
        for panel in items:
            yield panel
            yield from panels(panel.get("panels", []))

    for panel in panels(dashboard.get("panels", [])):
        if panel.get("type") == "row":
            continue
        if not uses_variable(panel.get("datasource")):
            problems.append(f"dashboard: panel {panel.get('title')!r} does not use the datasource variable")
        for target in panel.get("targets", []):
            if not uses_variable(target.get("datasource", panel.get("datasource"))):
                problems.append(f"dashboard: panel {panel.get('title')!r} target {target.get('refId')} "
                                "does not use the datasource variable")
            queries.append((f"dashboard panel {panel.get('title')!r}", target["expr"]))
    for name, variable in variables.items():
        if variable.get("type") != "query":
            continue
        query = variable["query"]
        query = query.get("query", "") if isinstance(query, dict) else query
        if not uses_variable(variable.get("datasource")):
            problems.append(f"dashboard: variable {name} does not use the datasource variable")
        match = re.fullmatch(r"\s*label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*", query)
        if match:
            queries.append((f"dashboard variable {name}", match.group(1)))
            queries.append((f"dashboard variable {name}", f"sum by ({match.group(2)}) ({match.group(1)})"))
        else:
            queries.append((f"dashboard variable {name}", query))
    return queries


def check_names(queries, scrape, recorded, problems):
    used = set()
    for where, expr in queries:
        found, clauses = selectors(expr)
        names = {name for name, _ in found}
        known_labels = set(TARGET_LABELS) | {"le"}
        for name in names:
            known_labels |= set(scrape.get(name, {})) | EXTERNAL_LABELS.get(name, set())
        for name, matchers in found:
            used.add(name)
            if name in recorded:
                continue
            if name in EXTERNAL:
                continue
            if name not in scrape:
                problems.append(f"{where}: metric {name} is not exported by the gateway (not in /metrics)")
                continue
            labels = scrape[name]
            for label, op, value in matchers:
                if label in TARGET_LABELS or "$" in value:
                    continue
                if label not in labels:
                    problems.append(f"{where}: {name} has no label {label} (it has: {', '.join(sorted(labels)) or 'none'})")
                    continue
                if op in ("!=", "!~"):
                    continue
                seen = labels[label] | EVENT_ONLY.get((name, label), set())
                test = (lambda v: v == value) if op == "=" else (lambda v: re.fullmatch(value, v) is not None)
                if not any(test(v) for v in seen):
                    problems.append(f"{where}: {name}{{{label}{op}\"{value}\"}} matches no value the gateway "
                                    f"exports (seen: {', '.join(sorted(seen))})")
        for label in clauses:
            if label not in known_labels and not any(n in recorded or n in EXTERNAL for n in names):
                problems.append(f"{where}: grouping label {label} is on none of {', '.join(sorted(names))}")
    return used


def check_alerts(rules, problems):
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', OPERATIONS.read_text(encoding="utf-8")))
    tests = yaml.safe_load(TESTS.read_text(encoding="utf-8"))
    fires, silent = set(), set()
    for test in tests["tests"]:
        for case in test.get("alert_rule_test", []):
            (fires if case.get("exp_alerts") else silent).add(case["alertname"])
    for group in rules["groups"]:
        for rule in group["rules"]:
            if "alert" not in rule:
                continue
            name = rule["alert"]
            if rule.get("labels", {}).get("severity") not in ("critical", "warning", "info"):
                problems.append(f"alert {name}: severity label critical, warning or info")
            annotations = rule.get("annotations", {})
            for key in ("summary", "description", "runbook_url"):
                if not annotations.get(key):
                    problems.append(f"alert {name}: annotation {key}")
            url = annotations.get("runbook_url", "")
            if not url.startswith("docs/operations.md#") or url.split("#", 1)[1] not in anchors:
                problems.append(f"alert {name}: runbook_url {url!r} names no anchor <a id=…> of docs/operations.md")
            if name not in fires:
                problems.append(f"alert {name}: no test in rules.test.yml where it fires")
            if name not in silent:
                problems.append(f"alert {name}: no test in rules.test.yml where it stays silent")


def check_lowercase(scrape, problems):
    for name, labels in scrape.items():
        for label, values in labels.items():
            if label in PATH_LABELS or label == "le":
                continue
            for value in values:
                if value != value.lower():
                    problems.append(f"{name}{{{label}=\"{value}\"}}: label values are lowercase")


def check_help(text, problems):
    helped = set(re.findall(r"^# HELP (\S+) ", text, re.M))
    for family in re.findall(r"^# TYPE (\S+) ", text, re.M):
        if family not in helped:
            problems.append(f"metric {family} has no # HELP line (metrics::describe_*)")


def check(metrics_file):
    problems = []
    if PROMETHEUS_RULE.read_text(encoding="utf-8") != prometheus_rule_text():
        problems.append(f"{PROMETHEUS_RULE.relative_to(ROOT)} differs from deploy/monitoring/rules.yml: "
                        "run `python3 scripts/check_monitoring.py sync`")
    text = Path(metrics_file).read_text(encoding="utf-8")
    scrape = parse_scrape(text)
    check_lowercase(scrape, problems)
    check_help(text, problems)
    rules = yaml.safe_load(RULES.read_text(encoding="utf-8"))
    recorded = {r["record"] for g in rules["groups"] for r in g["rules"] if "record" in r}
    queries = [(f"rules.yml {r.get('record') or r.get('alert')}", r["expr"]) for g in rules["groups"] for r in g["rules"]]
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    queries += dashboard_queries(dashboard, problems)
    used = check_names(queries, scrape, recorded, problems)
    check_alerts(rules, problems)
    for problem in problems:
        print(f"check-monitoring: {problem}", file=sys.stderr)
    if problems:
        return 1
    gateway = sorted(n for n in used if n in scrape)
    print(f"check-monitoring: {len(queries)} expressions name {len(gateway)} metric names the gateway exports; "
          f"besides: {', '.join(f'{n} ({EXTERNAL[n]})' for n in sorted(used & set(EXTERNAL)))} and "
          f"{len(used & recorded)} recording rules")
    return 0


def main(args):
    if args[:1] == ["sync"]:
        PROMETHEUS_RULE.write_text(prometheus_rule_text(), encoding="utf-8")
        print(f"wrote {PROMETHEUS_RULE.relative_to(ROOT)}")
        return 0
    if len(args) == 2 and args[0] == "check":
        return check(args[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
