"""The data carries the regulation verbatim: every line of the source, nothing more, in order.

The source is rebuilt from the loaded data with the source's own layout (tier headings "A:注意",
bullets "• …", penalty lines "罰則：… remedy") and compared line by line with the snapshot in
regulation/source/. When the guidelines are revised, replace the snapshot: this test's diff then
shows exactly which sentences changed.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from regulation.model import Regulation

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "regulation" / "source" / "penalty_guidelines_ja.txt"
# The team's copy of the regulation (../shared beside the checkout, or beside any folder above
# it): the snapshot above must be that file byte for byte wherever it can be found.
SHARED_SOURCE = next(
    (
        folder / "shared" / "regulation" / "penalty_guidelines_ja.txt"
        for folder in ROOT.parents
        if (folder / "shared" / "regulation" / "penalty_guidelines_ja.txt").exists()
    ),
    ROOT.parent / "shared" / "regulation" / "penalty_guidelines_ja.txt",
)


def source_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def rebuilt_lines(regulation: Regulation) -> list[str]:
    lines: list[str] = []
    for tier in regulation.tiers:
        lines.append(f"{tier.letter}:{tier.title.ja}")
        lines.extend(f"• {point.ja}" for point in tier.points)
    lines.extend(f"• {principle.text.ja}" for principle in regulation.principles)
    current_section = None
    for infraction in regulation.infractions:
        if infraction.section_id != current_section:
            current_section = infraction.section_id
            section = regulation.section(current_section)
            assert section is not None
            if section.heading_in_source:
                lines.append(f"{section.letter}:{section.title.ja}")
        lines.append(infraction.title.ja)
        # The first paragraph shares the penalty line, except a ※ note: the source always
        # sets those apart.
        paragraphs = [p.ja for p in infraction.paragraphs()]
        penalty_line = regulation.penalty_line(infraction, "ja")
        if paragraphs and not paragraphs[0].startswith("※"):
            lines.append(f"{penalty_line} {paragraphs.pop(0)}")
        else:
            lines.append(penalty_line)
        lines.extend(paragraphs)
    return lines


def test_data_rebuilds_the_source_exactly(regulation: Regulation) -> None:
    expected = source_lines(SNAPSHOT)
    actual = rebuilt_lines(regulation)
    diff = "\n".join(difflib.unified_diff(expected, actual, "source", "rules_ja.yaml", lineterm=""))
    assert actual == expected, f"the data differs from the regulation text:\n{diff}"


def test_every_source_sentence_is_in_the_data(regulation: Regulation) -> None:
    # A second, layout-independent view: each 。-sentence of the source occurs in some string.
    strings = "\n".join(rebuilt_lines(regulation))
    text = SNAPSHOT.read_text(encoding="utf-8")
    sentences = [s.strip(" •\n") for s in text.replace("\n", "。").split("。") if s.strip(" •\n")]
    missing = [s for s in sentences if s not in strings]
    assert not missing, f"sentences of the source not in the data: {missing}"


def test_counts_match_the_document(regulation: Regulation) -> None:
    assert [t.letter for t in regulation.tiers] == list("ABCDEF")
    assert len(regulation.principles) == 4
    assert len(regulation.sections) == 9
    assert len(regulation.infractions) == 28
    assert [c.id for c in regulation.categories] == ["deck", "deck-list", "play", "conduct"]


@pytest.mark.skipif(not SHARED_SOURCE.exists(), reason="no shared/ copy of the regulation here")
def test_snapshot_is_the_shared_regulation_text() -> None:
    assert SNAPSHOT.read_bytes() == SHARED_SOURCE.read_bytes()
