"""A pytest plugin for mutation testing only (`-p tests.mutation_order` in [tool.mutmut]): under
mutmut, a records module's own tests run first, tests/test_mutation_<module>.py and then
tests/test_records_<module>.py, so that a mutant they kill is decided in a second, not after
the log's other tests (mutmut stops at the first failure). conftest.py does the same for the
regulation's modules (test_<module>.py); this one runs after it and keeps its order otherwise."""

from __future__ import annotations

import os
import re

import pytest

# records.sync.hlc.x_stamp_of__mutmut_3, records.store.xǁLogStoreǁopen__mutmut_1
_MUTANT = re.compile(r"(?P<module>[\w.]+?)\.x[_ǁ]")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    found = _MUTANT.match(os.environ.get("MUTANT_UNDER_TEST", ""))
    if found is None:  # not a mutant: stats, a clean run, or no mutmut at all
        return
    module = found.group("module").rsplit(".", 1)[-1]
    first = (f"test_mutation_{module}.py", f"test_records_{module}.py")
    items.sort(key=lambda item: first.index(item.path.name) if item.path.name in first else 2)
