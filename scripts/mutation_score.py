"""The mutation score of the last `scripts/mutation.sh` run, per module, per package and in total.

Reads mutmut's results (mutants/<file>.meta) for the files `[tool.mutmut] only_mutate` names and
the equivalent mutants listed in docs/mutation.md, and prints

    score = killed / (mutants - equivalent)

where a mutant is killed when a test failed (or timed out, or crashed) with it. A surviving
mutant, one no test reaches ("no tests") and one not run yet all count against the score. An
entry of docs/mutation.md that no longer survives (a test kills it, or the code changed) is
reported, so the list stays true. Exit status 1 when a mutant is not run yet or a listed
equivalent is stale.
"""

from __future__ import annotations

import fnmatch
import json
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
EQUIVALENTS = ROOT / "docs" / "mutation.md"
# mutmut's exit codes (mutmut/stats.py): a test failed, timed out or the mutant crashed.
KILLED = {1, 3}
TIMEOUT = {24, -24, 152, 255, 36}
CRASHED = {-11, -9}
SURVIVED = {0}
NO_TESTS = {5, 33}
# Equivalents are listed as "- `module.function__mutmut_N`, `…`: why", one reason a line.
ITEM = re.compile(r"^\s*[-*]\s")
NAME = re.compile(r"`([\w.ǁ]+__mutmut_\d+)`")


def mutated_files() -> list[Path]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    found: list[Path] = []
    for source in config["source_paths"]:
        for path in sorted((ROOT / source).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if any(fnmatch.fnmatch(relative, pattern) for pattern in config["only_mutate"]):
                found.append(path.relative_to(ROOT))
    return found


def listed(heading: str) -> dict[str, str]:
    """Mutant name → its line, for the names under one `## heading` of docs/mutation.md."""
    if not EQUIVALENTS.exists():
        return {}
    found: dict[str, str] = {}
    inside = False
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line[3:].strip().startswith(heading)
        elif inside and ITEM.match(line):
            found.update(dict.fromkeys(NAME.findall(line), line.strip()))
    return found


def package_of(path: Path) -> str:
    """regulation/, records/ and records/sync/ are summed as packages; the views' files alone."""
    if path.parts[0] in ("regulation", "records"):
        return f"{path.parent.as_posix()}/"
    return path.as_posix()


def pending(patterns: list[str]) -> list[str]:
    """The mutants matching `patterns` (mutmut's names, with * as a wildcard) that are neither
    killed nor listed in docs/mutation.md: not run, or alive and not explained yet. mutmut
    reruns every mutant a pattern names, killed ones included; scripts/mutation.sh passes it
    these names instead (name a listed one to run it again after a new test)."""
    explained = listed("Equivalent") | listed("Alive")  # they survive every run
    names: list[str] = []
    for path in mutated_files():
        meta = MUTANTS / f"{path}.meta"
        if not meta.exists():
            continue
        results = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        for name, code in results.items():
            decided = code is not None and (code in KILLED or code in TIMEOUT or code in CRASHED)
            wanted = any(fnmatch.fnmatch(name, pattern) for pattern in patterns)
            if wanted and not decided and name not in explained:
                names.append(name)
    return names


def main() -> int:
    if sys.argv[1:2] == ["--pending"]:
        for name in pending(sys.argv[2:]):
            print(name)
        return 0
    equivalents = listed("Equivalent")
    accepted = listed("Alive")  # survivors explained, still counted against the score
    seen: set[str] = set()
    stale: list[str] = []
    unexplained: list[str] = []
    rows: list[tuple[str, str, Counter[str]]] = []
    for path in mutated_files():
        meta = MUTANTS / f"{path}.meta"
        if not meta.exists():
            continue
        results = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        counts: Counter[str] = Counter()
        for name, code in results.items():
            seen.add(name)
            counts["mutants"] += 1
            if code in KILLED or code in TIMEOUT or code in CRASHED:
                counts["killed"] += 1
                counts["timeout"] += code in TIMEOUT
                if name in equivalents or name in accepted:
                    stale.append(f"{name}: listed in {EQUIVALENTS.name}, but a test kills it")
            elif code is None:
                counts["not run"] += 1
            elif name in equivalents:
                counts["equivalent"] += 1
            else:
                counts["survived"] += 1
                counts["no tests"] += code in NO_TESTS
                if name not in accepted:
                    unexplained.append(name)
        rows.append((package_of(path), path.as_posix(), counts))
    gone = (equivalents.keys() | accepted.keys()) - seen
    stale += [f"{name}: listed in {EQUIVALENTS.name}, but no such mutant" for name in gone]
    if not rows:
        print("No results: run scripts/mutation.sh first.")
        return 1

    def line(label: str, counts: Counter[str]) -> str:
        scored = counts["mutants"] - counts["equivalent"]
        score = f"{100 * counts['killed'] / scored:5.1f} %" if scored else "    —  "
        if counts["mutants"] and counts["not run"] == counts["mutants"]:
            score = "not run"
        return (
            f"{label:30} {counts['mutants']:6} {counts['equivalent']:6} {counts['killed']:6}"
            f" {counts['survived']:6} {counts['not run']:6}   {score}"
        )

    print(f"{'':30} {'mutants':>6} {'equiv':>6} {'killed':>6} {'alive':>6} {'notrun':>6}   score")
    packages: dict[str, Counter[str]] = {}
    for package, module, counts in rows:
        print(line(module, counts))
        packages.setdefault(package, Counter()).update(counts)
    print()
    for package, counts in packages.items():
        print(line(package, counts))
    total: Counter[str] = Counter()
    for counts in packages.values():
        total.update(counts)
    print(line("total", total))
    print(
        f"\n(killed includes {total['timeout']} timeouts; alive includes {total['no tests']}"
        f" mutants no test reaches and {len(accepted)} explained in {EQUIVALENTS.name})"
    )
    if unexplained:
        print(f"\nSurvivors not listed in {EQUIVALENTS.relative_to(ROOT)} (mutmut show NAME):")
        for name in sorted(unexplained):
            print(f"  {name}")
    for problem in sorted(stale):
        print(f"stale: {problem}")
    return 1 if stale or total["not run"] else 0


if __name__ == "__main__":
    sys.exit(main())
