"""How the situation model (regulation/situation_model.py) joins the search's ranking.

Before the cues (intent, quantities, questions, looking), each entry gains MODEL_WEIGHT × its
probability × the best score the words gave, so a confident model outranks a narrow lead of the
words and a hesitant one only breaks near-ties; the cues then apply to the sum, so the model
cannot undo "12 minutes" or "by mistake". With no word found, the model alone answers only when
at least MODEL_ALONE sure. A hit the model brought first, or into the first three, says so
(Cue "typical": it reads like the typical situations of that entry).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

MODEL_WEIGHT = 2.0
MODEL_MIN = 0.02  # probabilities below this are the softmax's floor, not an opinion
MODEL_NEW = 0.1  # an entry the words did not find joins the results from this probability
MODEL_ALONE = 0.5
MODEL_CUE_MIN = 0.2
MODEL_CUE_RANKS = 3  # …into the first three, or first


def add_model(
    final: dict[int, float], probabilities: Mapping[str, float], entry_of: Mapping[str, int]
) -> bool:
    """Add the model's `probabilities` (entry id → probability) to the words' scores `final`
    (entry index → score), in place; `entry_of` maps entry ids to indexes. False, changing
    nothing, when the model is not to be used for this query."""
    best = max(final.values(), default=0.0)
    if not probabilities or (not best and max(probabilities.values()) < MODEL_ALONE):
        return False
    scale = MODEL_WEIGHT * (best or 1.0)
    for label, probability in probabilities.items():
        entry_index = entry_of.get(label)
        if entry_index is not None and probability >= (
            MODEL_MIN if final.get(entry_index, 0.0) > 0 else MODEL_NEW
        ):
            final[entry_index] = final.get(entry_index, 0.0) + scale * probability
    return True


def moved_up(
    final: dict[int, float],
    words_only: dict[int, float],
    probabilities: Mapping[str, float],
    entry_ids: Sequence[str],
) -> list[int]:
    """The entries the model brought first, or into the first three, where the words alone
    (every cue applied to both) would not have, and which it was sure enough of to say so."""
    before = [index for _, index in ranked(words_only)]
    after = [index for _, index in ranked(final)]
    moved = [index for index in after[:MODEL_CUE_RANKS] if index not in before[:MODEL_CUE_RANKS]]
    if after and before and after[0] != before[0] and after[0] not in moved:
        moved.insert(0, after[0])
    return [index for index in moved if probabilities[entry_ids[index]] >= MODEL_CUE_MIN]


def ranked(scores: Mapping[int, float]) -> list[tuple[float, int]]:
    """(score, entry index) of the entries scoring above 0, best first."""
    return sorted(((score, index) for index, score in scores.items() if score > 0), key=best_first)


def best_first(item: tuple[float, int]) -> tuple[float, int]:
    """Sort key of (score, entry index): higher score first, ties in document order."""
    score, entry_index = item
    return -score, entry_index
