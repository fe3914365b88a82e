"""Search as you type, over both languages, with highlighted matches and penalty chips."""

from __future__ import annotations

import flet as ft

from regulation.explain import Field, Why
from regulation.model import Infraction, Lang, Text

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..widgets import WHOLE_LINES, entry_row, icon_button, section_of, text_button
from .saved import saved_controls

RESULT_LIMIT = 30


def result_controls(ctx: Context, query: str) -> list[ft.Control]:
    """The results for `query`; before a query, the guidance, bookmarks and recent entries;
    the no-result guidance when nothing matches."""
    if not query.strip():
        return [
            ft.Text(ctx.ui(S.SEARCH_EMPTY), size=ctx.sizes.body),
            ft.Text(ctx.ui(S.SEARCH_EXAMPLES), size=ctx.sizes.small, italic=True),
            ft.Divider(),
            *saved_controls(ctx),
        ]
    hits = ctx.index.search(query, limit=RESULT_LIMIT)
    if not hits:
        # Never a dead end: the finder and the categories need no words.
        return [
            ft.Icon(ft.Icons.SEARCH_OFF, size=40),
            ft.Text(ctx.ui(S.SEARCH_NO_RESULTS, query=query[:40]), size=ctx.sizes.body),
            ft.Text(ctx.ui(S.SEARCH_NO_RESULTS_HINT), size=ctx.sizes.small),
            text_button(
                ctx,
                S.SEARCH_TRY_FINDER,
                kind=ft.FilledButton,
                icon=ft.Icons.QUIZ,
                on_click=lambda _: ctx.actions.navigate(routes.FINDER.link()),
            ),
            text_button(
                ctx,
                S.SEARCH_BROWSE_CATEGORIES,
                icon=ft.Icons.CATEGORY,
                on_click=lambda _: ctx.actions.navigate(routes.CATEGORIES.link()),
            ),
        ]
    rows: list[ft.Control] = [
        ft.Text(ctx.ui(S.SEARCH_RESULT_COUNT, count=len(hits)), size=ctx.sizes.small)
    ]
    for hit in hits:
        entry = hit.entry
        subtitle = section_of(ctx, entry) if isinstance(entry, Infraction) else None
        rows.append(
            entry_row(
                ctx, entry, spans=hit.spans, subtitle=subtitle, explanation=why_line(ctx, hit.why)
            )
        )
    return rows


FIELD_NAMES: dict[Field, str] = {
    "title": S.WHY_FIELD_TITLE,
    "alias": S.WHY_FIELD_ALIAS,
    "situation": S.WHY_FIELD_SITUATION,
    "section": S.WHY_FIELD_SECTION,
    "body": S.WHY_FIELD_BODY,
}
CUE_NAMES: dict[str, str] = {
    "deliberate": S.WHY_INTENTIONAL,
    "accidental": S.WHY_UNINTENTIONAL,
    "minutes": S.WHY_MINUTES,
    "deck_size": S.WHY_DECK_SIZE,
    "copies": S.WHY_COPIES,
    "no_accidental_entry": S.WHY_NO_ACCIDENTAL_ENTRY,
    "typical": S.WHY_TYPICAL,
}


def why_line(ctx: Context, why: Why) -> ft.Control | None:
    """Why a result is here, in a line a judge can check at a glance: what the query stated
    that ranked it up (intent, a number read against the regulation's thresholds), the words
    found and where, and the typical situation that matched."""
    lines = Text(_why(ctx, why, "ja"), _why(ctx, why, "en"))
    if not lines.ja:
        return None
    return ft.Text(
        ctx.shown(lines), size=ctx.sizes.small, italic=True, color=ft.Colors.ON_SURFACE_VARIANT
    )


def _why(ctx: Context, why: Why, lang: Lang) -> str:
    def say(message: str, **values: object) -> str:
        return ctx.text(message, **values).pick(lang)

    parts = [
        say(CUE_NAMES[str(cue.value) if cue.kind == "intent" else cue.kind], n=cue.value)
        for cue in why.cues
        # An entry lowered because the source has no entry for an honest mistake says so too.
        if cue.raised or cue.value == "no_accidental_entry"
    ]
    words = [say(S.WHY_WORD_IN, word=w.word, field=say(FIELD_NAMES[w.field])) for w in why.words]
    if words:
        parts.append(say(S.WHY_MATCHED, words=("、" if lang == "ja" else ", ").join(words)))
    lines = [" · ".join(parts)] if parts else []
    if why.situation is not None:
        lines.append(say(S.WHY_SITUATION, situation=why.situation.pick(lang)))
    return "\n".join(lines)


def search_screen(ctx: Context, query: str) -> Screen:
    results = ft.Column(
        result_controls(ctx, query), spacing=2, scroll=ft.ScrollMode.AUTO, expand=True
    )

    def show(text: str) -> None:
        ctx.state.search_query = text
        results.controls = result_controls(ctx, text)
        results.update()

    def on_change(e: ft.Event[ft.TextField]) -> None:
        show(e.control.value or "")

    def clear(_: ft.Event) -> None:
        field.value = ""
        field.update()
        show("")

    field = ft.TextField(
        error_max_lines=WHOLE_LINES,
        hint_max_lines=WHOLE_LINES,
        value=query,
        hint_text=ctx.ui(S.SEARCH_HINT),
        label=ctx.ui(S.SEARCH_TITLE),
        prefix_icon=ft.Icons.SEARCH,
        suffix=icon_button(ft.Icons.CLEAR, ctx.ui(S.CLEAR_SEARCH), on_click=clear),
        on_change=on_change,
        text_size=ctx.sizes.body,
    )
    return Screen(
        title=ctx.ui(S.SEARCH_TITLE),
        body=ft.Column(
            [field, results], expand=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
        ),
        focus=field,
    )
