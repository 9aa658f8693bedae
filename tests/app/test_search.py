"""Pilot tests of searching and browsing: results as you type, modes, filters, preview, errors."""

from __future__ import annotations

import threading

from fakes import FakeEmbedder
from textual.pilot import Pilot
from textual.widgets import Markdown, Static
from tui_helpers import Recorder, make_app, search_for, settle, wait_until

from app.tui.screens.main import MainScreen
from app.tui.search_state import SearchRequest, SearchState
from app.tui.widgets.filter_list import FilterList
from app.tui.widgets.preview import EntryPreview
from app.tui.widgets.results_pane import ResultsPane
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.search_bar import SearchBar
from app.tui.widgets.status_line import StatusLine
from engine.core.errors import StorageError
from engine.core.models import Category, SearchMode
from engine.services.memory import Memory


def titles(screen: MainScreen) -> list[str]:
    """Titles of the rows in the results table, in order."""
    return [r.entry.title for r in screen.query_one(ResultsTable).results]


def text_of(screen: MainScreen, selector: str) -> str:
    """The plain text a Static (or Label) shows."""
    return str(screen.query_one(selector, Static).render())


async def test_browsing_lists_every_entry_newest_first(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        shown = titles(screen)
        assert shown[0].startswith("The TUI loads")  # added last
        assert len(shown) == 5
        assert "5 entries" in text_of(screen, "#results-header")
        assert screen.query_one(StatusLine).entries == 5


async def test_typing_shows_results(seeded: Memory, recorder: Recorder) -> None:
    app = make_app(seeded)
    async with app.run_test(message_hook=recorder) as pilot:
        await settle(pilot)
        await pilot.press(*"lancedb")
        await settle(pilot)
        screen = app.screen
        assert titles(screen)[0].startswith("LanceDB filters")
        ready = recorder.of(ResultsPane.ResultsReady)
        assert ready[-1].request.state.query == "lancedb"
        # as-you-type: the last word matches as a prefix
        await pilot.press("ctrl+u", *"recipro")
        await settle(pilot)
        assert titles(screen)[0].startswith("Search results are fused")


async def test_results_for_a_changed_query_are_dropped(seeded: Memory) -> None:
    release = threading.Event()
    held = threading.Event()
    answered: list[str] = []
    real_search = seeded.search

    def slow_search(query: str, **kwargs: object) -> object:
        if query == "lancedb":
            held.set()
            release.wait(5)  # the user types on while this one is still running
        response = real_search(query, **kwargs)  # type: ignore[arg-type]
        answered.append(query)
        return response

    seeded.search = slow_search  # type: ignore[method-assign]
    app = make_app(seeded)
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press(*"lancedb")
        await wait_until(pilot, held.is_set, "the search for 'lancedb' to be running")
        await pilot.press("ctrl+u", *"fts5")
        # The newer search is answered while the older one is still held.
        await wait_until(pilot, lambda: "fts5" in answered, "the search for 'fts5'")
        assert "lancedb" not in answered
        release.set()
        await settle(pilot)
        assert titles(screen) == ["Keyword search quotes every term so FTS5 syntax never raises"]
        # A late answer to an old generation changes nothing either.
        stale = SearchRequest(SearchState(query="lancedb"), 0, SearchMode.HYBRID)
        screen.query_one(ResultsPane).post_message(ResultsPane.ResultsReady(stale, (), ()))
        await pilot.pause()
        assert len(titles(screen)) == 1


async def test_changing_mode_reruns_the_search(seeded: Memory, recorder: Recorder) -> None:
    app = make_app(seeded)
    async with app.run_test(message_hook=recorder) as pilot:
        await settle(pilot)
        await search_for(pilot, "fts5 syntax")
        before = len(recorder.of(ResultsPane.ResultsReady))
        await pilot.press("f3")
        await settle(pilot)
        last = recorder.of(ResultsPane.ResultsReady)[-1]
        assert len(recorder.of(ResultsPane.ResultsReady)) == before + 1
        assert last.request.effective_mode is SearchMode.KEYWORD
        assert "keyword" in text_of(app.screen, "#results-header")
        await pilot.click("#mode-vector")  # the mouse works too
        await settle(pilot)
        assert recorder.of(ResultsPane.ResultsReady)[-1].request.effective_mode is SearchMode.VECTOR
        assert app.screen.query_one(StatusLine).mode is SearchMode.VECTOR
        await pilot.press("ctrl+t")  # cycles back to hybrid
        await settle(pilot)
        assert recorder.of(ResultsPane.ResultsReady)[-1].request.effective_mode is SearchMode.HYBRID


async def test_category_filter_narrows_results_and_counts(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = app.screen
        categories = screen.query_one("#categories", FilterList)
        assert "gotcha" in str(categories.get_option("gotcha").prompt)
        assert str(categories.get_option("gotcha").prompt).rstrip().endswith("2")
        categories.focus()  # wide screen: the filters are shown (ctrl+g would hide them)
        await pilot.pause()
        categories.highlighted = categories.get_option_index("gotcha")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.category is Category.GOTCHA
        assert len(titles(screen)) == 2
        assert "2 entries" in text_of(screen, "#results-header")
        await pilot.press(*"search")  # focus is back on the query; a search is narrowed too
        await settle(pilot)
        assert all(
            r.entry.category is Category.GOTCHA for r in screen.query_one(ResultsTable).results
        )
        assert "category gotcha" in text_of(screen, "#results-header")


async def test_source_filter_and_counts(seeded: Memory) -> None:
    seeded.add("Agents note what they learn", category="general", source="session")
    app = make_app(seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = app.screen
        sources = screen.query_one("#sources", FilterList)
        sources.focus()
        sources.highlighted = sources.get_option_index("session")
        await pilot.press("enter")
        await settle(pilot)
        assert titles(screen) == ["Agents note what they learn"]
        categories = screen.query_one("#categories", FilterList)
        # category counts follow the source filter
        assert str(categories.get_option("gotcha").prompt).rstrip().endswith("0")
        assert str(categories.get_option("general").prompt).rstrip().endswith("1")


async def test_preview_follows_the_selection(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await search_for(pilot, "gotcha fts5 lancedb")
        await pilot.press("f3")
        await settle(pilot)
        screen = app.screen
        table = screen.query_one(ResultsTable)
        preview = screen.query_one(EntryPreview)
        assert preview.result == table.results[0]
        assert screen.query_one("#preview-body", Markdown).source == table.results[0].entry.content
        first = text_of(screen, "#preview-meta")
        assert "category gotcha" in first and "keywords" in first
        assert "keyword #1" in text_of(screen, "#preview-why")
        await pilot.press("down", "down")  # to the results, then the next row
        await pilot.pause()
        assert table.cursor_row == 1
        await wait_until(pilot, lambda: preview.result == table.results[1], "the preview")
        assert screen.query_one("#preview-body", Markdown).source == table.results[1].entry.content


async def test_a_failing_search_shows_a_message_and_the_app_keeps_running(
    seeded: Memory,
) -> None:
    real_search = seeded.search

    def broken(query: str, **kwargs: object) -> object:
        if "boom" in query:
            raise StorageError("the vector store is unreadable")
        if "crash" in query:
            raise RuntimeError("unexpected")
        return real_search(query, **kwargs)  # type: ignore[arg-type]

    seeded.search = broken  # type: ignore[method-assign]
    app = make_app(seeded)
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.screen
        # A failed search's worker ends in error on purpose (the pane shows it), so these
        # wait for the message rather than for every worker to succeed.
        await ask_failing(pilot, "boom", "the vector store is unreadable")
        assert screen.query_one("#results-pane").has_class("-error")
        await ask_failing(pilot, "crash", "RuntimeError: unexpected")
        await search_for(pilot, "lancedb")
        assert app.is_running
        assert not screen.query_one("#results-pane").has_class("-error")
        assert titles(screen)[0].startswith("LanceDB")


async def ask_failing(pilot: Pilot[object], text: str, message: str) -> None:
    """Ask for ``text``, whose search fails, and wait until ``message`` is shown."""
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    screen.query_one(SearchBar).value = text
    await wait_until(
        pilot,
        lambda: message in text_of(screen, "#results-message"),
        f"the failure of the search for {text!r} to be shown",
    )


class SlowModel(FakeEmbedder):
    """A fake model that stays "loading" until the test lets it finish."""

    def __init__(self) -> None:
        super().__init__()
        self.loaded = False
        self.may_load = threading.Event()

    def load(self) -> None:
        self.may_load.wait(10)
        self.loaded = True


async def test_keyword_results_while_the_model_loads(tmp_path: object) -> None:
    model = SlowModel()
    memory = Memory.open(tmp_path, embedder=model)  # type: ignore[arg-type]
    memory.add("LanceDB filters need double quotes around camelCase columns", category="gotcha")
    app = make_app(memory)
    try:
        async with app.run_test() as pilot:
            await pilot.pause()
            screen = app.screen
            status = screen.query_one(StatusLine)
            assert status.model_state == "loading"
            assert "model loading" in str(status.render())
            await pilot.press(*"lancedb")
            await wait_until(
                pilot,
                lambda: "“lancedb”" in text_of(screen, "#results-header"),
                "the results for 'lancedb'",
            )
            assert titles(screen)[0].startswith("LanceDB")
            header = text_of(screen, "#results-header")
            assert "keyword" in header and "hybrid once the model is ready" in header
            model.may_load.set()
            await settle(pilot)
            assert status.model_state == "ready"
            assert "model ready" in str(status.render())  # ": hybrid available" when it fits
            assert text_of(screen, "#results-header").startswith("1 result for “lancedb” · hybrid")
    finally:
        model.may_load.set()
        memory.close()


async def test_empty_memory_explains_what_to_do(memory: Memory) -> None:
    app = make_app(memory)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert "Your memory is empty" in text_of(app.screen, "#results-message")
        await search_for(pilot, "anything")
        assert "No results for “anything”" in text_of(app.screen, "#results-message")
