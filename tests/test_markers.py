"""The markers that decide what the in-process suite (`-m "not browser and not process"`) runs:
a test that starts a process fails unless marked `process`, a test that opens the browser is
marked `browser` whatever its module says (tests/conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest
from conftest import PROCESSES_REFUSED, pytest_itemcollected


def test_an_unmarked_test_cannot_start_a_process(request: pytest.FixtureRequest) -> None:
    with pytest.raises(AssertionError, match="not marked `process`"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)
    refused = request.node.stash[PROCESSES_REFUSED]
    assert len(refused) == 1 and sys.executable in refused[0]
    refused.clear()  # expected here: this test passes


@pytest.mark.process
def test_a_test_marked_process_starts_one() -> None:
    done = subprocess.run([sys.executable, "-c", "print('started')"], capture_output=True)
    assert done.stdout.strip() == b"started"


def test_a_test_that_opens_the_browser_is_marked_browser() -> None:
    marks: list[pytest.MarkDecorator] = []
    pytest_itemcollected(SimpleNamespace(fixturenames=["browser"], add_marker=marks.append))  # type: ignore[arg-type]
    assert [mark.name for mark in marks] == ["browser"]
    pytest_itemcollected(SimpleNamespace(fixturenames=["apps"], add_marker=marks.append))  # type: ignore[arg-type]
    assert len(marks) == 1
