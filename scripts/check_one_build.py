"""`make test` builds the Rust once: the release binaries reuse the crates `cargo test --release`
built (Makefile, test-rust). That holds only while the tests' dev-dependencies turn on no feature of
a crate the binaries also use; one that does (tokio's `test-util` did) makes cargo build that crate
and everything above it twice. This compares the two feature sets cargo resolves and names any
crate whose features differ.

usage: check_one_build.py
"""
import subprocess
import sys


def resolved(edges):
    out = subprocess.run(
        ["cargo", "tree", "--workspace", "--locked", "-e", edges, "--prefix", "none", "-f", "{p}|{f}"],
        check=True, capture_output=True, text=True,
    ).stdout
    crates = {}
    for line in out.splitlines():
        package, _, features = line.removesuffix(" (*)").partition("|")
        # A workspace member's line names its path; its own features are not at issue here.
        if not package or "(/" in package:
            continue
        crates.setdefault(package.strip(), set()).update(f for f in features.split(",") if f)
    return crates


binaries = resolved("normal,build")
tests = resolved("normal,build,dev")
differ = sorted(p for p in binaries if p in tests and binaries[p] != tests[p])
for package in differ:
    added = ", ".join(sorted(tests[package] - binaries[package]))
    print(f"one build: the tests turn on {added} in {package}", file=sys.stderr)
if differ:
    sys.exit(1)
print(f"one build: the tests add no feature to the {len(binaries)} crates the binaries use")
