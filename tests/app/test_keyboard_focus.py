"""Pilot tests of where keys go: typing after picking a category goes to the query, ctrl+g
toggles only the filters, a key typed during a search runs when it ends."""

from __future__ import annotations

import pytest
from tui_helpers import make_app, settle, wait_until

from app.tui.screens.main import MainScreen
from app.tui.widgets.filter_list import FilterList
from app.tui.widgets.search_bar import SearchBar
from engine.core.models import Category
from engine.services.memory import Memory


async def test_typing_after_picking_a_category_goes_to_the_query(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = app.screen
        categories = screen.query_one("#categories", FilterList)
        categories.focus()
        await pilot.pause()
        categories.highlighted = categories.get_option_index("gotcha")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.category is Category.GOTCHA
        assert isinstance(app.focused, SearchBar)
        await pilot.press(*"fts5")
        await settle(pilot)
        assert screen.query_one(SearchBar).value == "fts5"
        assert screen.state.query == "fts5"


async def test_ctrl_g_toggles_only_the_filters(seeded: Memory) -> None:
    for size in ((160, 48), (80, 24)):
        app = make_app(seeded)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, MainScreen)
            # Shown at first on the wide terminal: the first press goes there (issue 33).
            for expected in (True, False, True):
                await pilot.press("ctrl+g")
                await settle(pilot)
                assert screen.filters_visible is expected, size
                assert screen.query_one("#sidebar").display is expected, size
                for pane in ("#results-pane", "#preview"):
                    region = screen.query_one(pane).region
                    assert region.width > 20 and region.height > 3, (size, pane)
                if expected:
                    assert isinstance(app.focused, FilterList)
                else:
                    assert isinstance(app.focused, SearchBar)


async def test_a_key_typed_during_a_search_runs_when_that_search_ends(
    seeded: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from app.tui.widgets import results_pane

    monkeypatch.setattr(results_pane, "DEBOUNCE_SECONDS", 5.0)  # a wait the test would notice
    held, release = threading.Event(), threading.Event()
    asked: list[str] = []
    real_search = seeded.search

    def slow_search(query: str, **kwargs: object) -> object:
        if query.startswith("lance"):  # not the model's warm-up
            asked.append(query)
        if query == "lance":
            held.set()
            release.wait(10)
        return real_search(query, **kwargs)  # type: ignore[arg-type]

    seeded.search = slow_search  # type: ignore[method-assign]
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.pause(0.1)
        app.screen.query_one(SearchBar).value = "lance"
        await wait_until(pilot, held.is_set, "the search for 'lance' to run")
        app.screen.query_one(SearchBar).value = "lancedb"  # typed on meanwhile
        await pilot.pause(0.05)
        assert asked == ["lance"]  # one search in flight
        release.set()
        # The newest query starts as soon as the running search ends, not 5 s later.
        await wait_until(pilot, lambda: "lancedb" in asked, "the search for 'lancedb'", timeout=4)
        await settle(pilot)
        assert asked == ["lance", "lancedb"]
