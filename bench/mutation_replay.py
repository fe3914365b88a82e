"""What bench/bench_mutation_order.py and bench_mutation_speed.py share: they replay mutmut's
work on a function's mutants from mutmut's results in mutants/, each mutant's tests in a process
forked from one that collected the tests once, as mutmut's fork server does."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"


def exit_codes(function: str) -> dict[str, int | None]:
    """mutmut's exit code for each mutant of `function` (records.identity.x_visible), by
    number: None when not run yet."""
    module = function.split(".x", 1)[0]
    meta = MUTANTS / (module.replace(".", "/") + ".py.meta")
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    pattern = re.compile(re.escape(function) + r"__mutmut_(\d+)$")
    found = sorted((int(m.group(1)), name) for name in codes if (m := pattern.match(name)))
    return {name: codes[name] for _, name in found}


def tests_of(function: str) -> list[str]:
    """The tests mutmut saw call `function` while it collected its statistics, by name."""
    stats = json.loads((MUTANTS / "mutmut-stats.json").read_text(encoding="utf-8"))
    return sorted(stats["tests_by_mangled_function_name"][function])


def warm_up() -> None:
    """Become mutmut's fork server: in mutants/, every test module of the configured selection
    collected (imported) once, so that each fork starts from there."""
    os.chdir(MUTANTS)
    sys.path.insert(0, str(MUTANTS))
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    selection = pyproject["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        pytest.main(["--rootdir=.", "--collect-only", "-qqq", "-p", "no:cacheprovider", *selection])
