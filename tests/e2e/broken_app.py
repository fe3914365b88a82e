"""A Flet app with known faults of layout, one per route, for the layout checker's own tests
(tests/e2e/test_layout_checker.py): `python broken_app.py --port N` serves it on 127.0.0.1.

/fine                a plain screen
/error-bounded       the record page's old deleted banner (an expanding Text in a wrapping
                     Row) in a box of fixed height: Flutter reports it, the boxes look fine
/error-scrolling     the same in a scrolling column: the error box, 100,000 px tall, pushes
                     the rest of the screen away
/error-unreported    the same, the app not listening to the client's errors
/across              a row wider than the window: its last text runs off the page's right edge
/late                reached from /fine inside the app: another fine screen, built in four
                     more updates 0.08 s apart, the last of them adding that row: a check must
                     wait for the screen to settle (layout.settled_layout), not judge its
                     first frame
"""

from __future__ import annotations

import argparse
import asyncio

import flet as ft


def banner() -> ft.Control:
    return ft.Row(
        [
            ft.Icon(ft.Icons.DELETE_OUTLINE),
            ft.Text("This record is deleted", expand=True),
            ft.FilledButton("Restore"),
        ],
        wrap=True,
    )


def too_wide() -> ft.Control:
    return ft.Row([ft.Container(width=330, height=40), ft.Text("Off the right edge")])


def screen(route: str) -> list[ft.Control]:
    if route == "/error-bounded":
        return [ft.Container(banner(), height=120), ft.Text("After the banner"), ft.Button("Below")]
    if route in ("/error-scrolling", "/error-unreported"):
        return [
            ft.Column(
                [banner(), ft.Text("After the banner"), ft.Button("Below")],
                scroll=ft.ScrollMode.AUTO,
                expand=True,
            )
        ]
    if route == "/across":
        return [
            too_wide(),
            ft.Text("Inside"),
            ft.Button("Below"),  # the accessibility tree shows once something has a role
        ]
    return [ft.Text("A fine screen"), ft.Button("Fine")]


def main(page: ft.Page) -> None:
    route = page.route.split("?")[0]
    if route != "/error-unreported":
        page.on_error = lambda e: print(f"client error on {route}: {e.data}", flush=True)
    page.add(*screen(route))

    async def later() -> None:
        for step in range(1, 4):
            await asyncio.sleep(0.08)
            page.add(ft.Text(f"Step {step}"))
        await asyncio.sleep(0.08)
        page.add(too_wide())

    def route_changed(_: ft.RouteChangeEvent) -> None:
        if page.route == "/late":
            page.controls.clear()
            page.add(ft.Text("A later screen"), ft.Button("Fine"))
            page.run_task(later)

    page.on_route_change = route_changed


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", action="store_true")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    ft.run(main, view=ft.AppView.WEB_BROWSER, host="127.0.0.1", port=args.port, no_cdn=True)
