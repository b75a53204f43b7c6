#!/usr/bin/env python3
"""The gateway's layers, kept (`make lint`; docs/ARCHITECTURE.md, "Crates").

1. Each crate of the workspace depends only on the crates the table below allows it: the layers
   below it. Cargo itself refuses a cycle between crates; this keeps the order, so a change that
   makes `portal-cms` depend on `portal-cache` fails here rather than in a review.
2. The few heavy or dangerous libraries stay in the crate that owns them: the HTTP client of the
   CMS in the adapter (and the operator's admin client in the binary, never in the faces), QuickJS in the render,
   tantivy in the search index, Redis in the cache.
3. Within a crate, the few fences a crate boundary cannot draw (`TEXT_RULES`): the faces of the
   gateway never name the CMS adapter, the render hands no work to tokio's threads, the model
   names nothing else of its crate, no code reads back a body the gateway made, and only the
   envelope shapes an API answer. Each looks for a crate's name or a call, which no `use` tree
   can hide (a `crate::` path can: that is why the layers are crates).
4. No import circle inside any crate: the modules of each crate, as files, form no loop of `use`
   paths (`crate::…`, `super::…`, `self::…`). A module may use what its ancestors define (its
   parent is its face), so those arrows are not counted.

What it reads for (4) is text: paths in `use` items and in expressions, comments and string
literals removed first. A path the compiler would resolve through a re-export is taken to the
module that re-exports it, which is the arrow a reader sees.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Which workspace crates each crate may depend on (normal dependencies), bottom to top.
LAYERS: dict[str, set[str]] = {
    "portal-core": set(),
    "portal-cms": {"portal-core"},
    "portal-render": {"portal-core"},
    "portal-cache": {"portal-core"},
    "portal-content": {"portal-core", "portal-cms", "portal-cache"},
    "portal-search": {"portal-core", "portal-cache", "portal-content"},
    "portal-web": {
        "portal-core",
        "portal-cms",
        "portal-render",
        "portal-cache",
        "portal-content",
        "portal-search",
    },
    # The binary: its command line, the upstream checker and the admin client.
    "portal-gateway": {
        "portal-core",
        "portal-cms",
        "portal-search",
        "portal-web",
    },
    # Run beside the gateway, never linked into it.
    "reference-cms": set(),
    "portal-tools": {
        "portal-core",
        "portal-cms",
        "portal-cache",
        "portal-content",
        "portal-search",
        "portal-web",
        "reference-cms",
    },
}

# A library, and the only crates that may name it as a normal dependency.
OWNED: dict[str, set[str]] = {
    # The CMS's client; the binary's operator client of a gateway's admin API (so the faces,
    # portal-web, cannot call anything over HTTP themselves); reference-cms and the tools are
    # separate programs.
    "reqwest": {"portal-cms", "portal-gateway", "reference-cms", "portal-tools"},
    "rquickjs": {"portal-render"},
    "tantivy": {"portal-search"},
    "jieba-rs": {"portal-search"},
    # The shared tier; the hostile suite (a separate program) writes into Redis as an intruder would.
    "redis": {"portal-cache", "portal-tools"},
    "ammonia": {"portal-cms"},
    "opentelemetry_sdk": {"portal-core"},
    # The render answers values: it knows nothing of HTTP.
    "axum": {"portal-cms", "portal-cache", "portal-content", "portal-web", "portal-gateway", "reference-cms", "portal-tools"},
    "hyper": {"portal-web"},
}


# A fence inside crates: the crates it holds in ("*": every crate of the gateway), the files
# under their src/ it reads (prefixes; "" for all), the words none may hold, the files it
# passes over ("crate:prefix"), and why.
TEXT_RULES: list[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...], str]] = [
    (
        "portal-web",
        ("api/", "crawl/", "pages/", "admin/", "webhook/"),
        ("portal_cms", ".upstream", "dialect()", "get_json"),
        (),
        "a face asks the content service, never the CMS adapter",
    ),
    (
        "portal-gateway",
        ("cli/",),
        ("portal_cms", ".upstream", "dialect()", "get_json"),
        (),
        "the admin client asks a running gateway, never the CMS adapter",
    ),
    (
        "portal-gateway",
        ("cli/",),
        ("base_url", "UpstreamConfig"),
        (),
        "cli/ is the operator's client of a gateway's admin API and knows nothing of the CMS",
    ),
    (
        "portal-gateway",
        ("",),
        ("reqwest",),
        ("portal-gateway:cli/", "portal-gateway:init.rs"),
        "only cli/ and init.rs name reqwest in the binary (the CMS's client is portal-cms's; init's "
        "probes recognise a CMS before any config or adapter exists; portal-web has none)",
    ),
    (
        "portal-render",
        ("",),
        ("spawn_blocking", "block_in_place", "block_on"),
        (),
        "the render runs scripts on its own threads and hands none to tokio's",
    ),
    (
        "portal-core",
        ("model/",),
        ("crate::", "super::super"),
        (),
        "the model imports nothing else of its crate",
    ),
    (
        "*",
        ("",),
        ("body::to_bytes", "result_of"),
        (),
        "faces render typed values (ContentService); nothing reads back a body the gateway made",
    ),
    (
        "*",
        ("",),
        ('"成功"', '"code":'),
        ("portal-content:envelope.rs", "portal-cms:"),
        "only portal-content's envelope.rs shapes an API answer (portal-cms reads a CMS's)",
    ),
]


def check_text(packages: list[dict]) -> list[str]:
    problems = []
    for package in packages:
        name = package["name"]
        if name in ("reference-cms", "portal-tools"):
            continue
        src = Path(package["manifest_path"]).parent / "src"
        for file in sorted(src.rglob("*.rs")):
            relative = file.relative_to(src).as_posix()
            # Tests and their fixtures may build whatever they check.
            if relative.endswith("tests.rs") or "/tests/" in relative or relative.endswith("shapes.rs"):
                continue
            raw = file.read_text()
            cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+tests\s*\{", raw)
            text = raw[: cut.start()] if cut else raw
            for crates, places, words, passes, why in TEXT_RULES:
                if crates not in ("*", name) or not any(relative.startswith(p) for p in places):
                    continue
                if any(f"{name}:{relative}".startswith(p) for p in passes):
                    continue
                for word in words:
                    if word in text:
                        problems.append(f"{name}: src/{relative} names {word}: {why}")
    return problems


def metadata() -> dict:
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps", "--locked"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def check_crates(packages: list[dict]) -> list[str]:
    problems = []
    names = {p["name"] for p in packages}
    for name in sorted(names - LAYERS.keys()):
        problems.append(f"{name}: a crate the layer table (scripts/check_layers.py) does not place")
    for package in packages:
        name = package["name"]
        normal = {d["name"] for d in package["dependencies"] if d["kind"] is None}
        for dep in sorted((normal & names) - LAYERS.get(name, set())):
            problems.append(f"{name} depends on {dep}, which is not below it")
        for lib, owners in OWNED.items():
            if lib in normal and name not in owners:
                problems.append(f"{name} depends on {lib}: only {', '.join(sorted(owners))} may")
    return problems


COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'b?r#*"(?:.|\n)*?"#*|b?"(?:\\.|[^"\\])*"|\'(?:\\.|[^\\\'])\'')
USE = re.compile(r"\buse\s+([^;]+);")
PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
MOD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;", re.M)


def strip(text: str) -> str:
    # Strings first: a `//` inside one is not a comment. Character literals are kept short so
    # that lifetimes ('a) are not read as quotes.
    text = STRING.sub('""', text)
    return COMMENT.sub("", text)


def expand(tree: str) -> list[str]:
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (one use item)."""
    tree = re.sub(r"\s+", "", tree)
    out: list[str] = []

    def walk(prefix: str, part: str) -> None:
        brace = part.find("{")
        if brace < 0:
            out.append(prefix + part)
            return
        head, body = part[:brace], part[brace + 1 : part.rindex("}")]
        depth, start = 0, 0
        for i, ch in enumerate(body + ","):
            if ch in "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                item = body[start:i]
                start = i + 1
                if item:
                    walk(prefix + head, item)

    walk("", tree)
    return out


class Crate:
    """The module tree of one crate: a module's path (['cms', 'dialect']) to its file."""

    def __init__(self, root_file: Path):
        self.files: dict[tuple[str, ...], Path] = {}
        self.load((), root_file)

    def load(self, path: tuple[str, ...], file: Path) -> None:
        self.files[path] = file
        text = strip(file.read_text())
        # `#[cfg(test)] mod tests;` and its kin: tests may reach anything they check.
        for m in MOD.finditer(text):
            name = m.group(1)
            before = text[max(0, m.start() - 40) : m.start()]
            if "cfg(test)" in before:
                continue
            if file.name in ("lib.rs", "main.rs", "mod.rs"):
                base = file.parent
            else:
                base = file.parent / file.stem
            for child in (base / f"{name}.rs", base / name / "mod.rs"):
                if child.exists():
                    self.load(path + (name,), child)
                    break

    def resolve(self, here: tuple[str, ...], path: str) -> tuple[str, ...] | None:
        """The module a `crate::`/`super::`/`self::` path lands in (its longest module prefix)."""
        parts = path.split("::")
        if parts[0] == "crate":
            base: tuple[str, ...] = ()
            rest = parts[1:]
        elif parts[0] == "self":
            base, rest = here, parts[1:]
        else:
            base, rest = here, parts
            while rest and rest[0] == "super":
                base, rest = base[:-1], rest[1:]
        module = base
        for name in rest:
            if module + (name,) in self.files:
                module = module + (name,)
            else:
                break
        return module

    def arrows(self) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
        arrows: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in self.files}
        for module, file in self.files.items():
            text = strip(file.read_text())
            # A test module inside a file reaches whatever it checks: cut it off.
            cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+tests\s*\{", text)
            if cut:
                text = text[: cut.start()]
            paths = []
            for m in USE.finditer(text):
                paths.extend(p for p in expand(m.group(1)) if re.match(r"(crate|super|self)::", p))
            paths.extend(m.group(0) for m in PATH.finditer(text))
            for path in paths:
                target = self.resolve(module, path.replace(" ", ""))
                # Its own module, an ancestor (the parent is its face) or a descendant (its own
                # parts): not an arrow between rooms.
                if target is None or target == module:
                    continue
                if module[: len(target)] == target or target[: len(module)] == module:
                    continue
                arrows[module].add(target)
        return arrows


def circles(arrows: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[list[tuple[str, ...]]]:
    """Strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    found = []
    counter = 0
    for start in arrows:
        if start in index:
            continue
        work = [(start, iter(sorted(arrows[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(arrows.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def check_circles(packages: list[dict]) -> list[str]:
    problems = []
    for package in packages:
        for target in package["targets"]:
            if not set(target["kind"]) & {"lib", "bin"}:
                continue
            crate = Crate(Path(target["src_path"]))
            for circle in circles(crate.arrows()):
                files = [str(crate.files[m].relative_to(ROOT)) for m in circle]
                problems.append(f"{package['name']}: an import circle: {' <-> '.join(files)}")
    return problems


def main() -> int:
    packages = metadata()["packages"]
    problems = check_crates(packages) + check_text(packages) + check_circles(packages)
    for problem in problems:
        print(f"layers: {problem}", file=sys.stderr)
    if problems:
        return 1
    count = sum(1 for _ in packages)
    print(f"layers: {count} crates in their order, no import circle in any")
    return 0


if __name__ == "__main__":
    sys.exit(main())
