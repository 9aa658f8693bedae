"""The app at the sizes people use (140×45, 80×24, 50×14): readable columns, results
that fit, messages and toasts that are not cut or covered."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets import Footer, Label, TextArea
from tui_helpers import make_app, settle

from app.tui.screens.entry_form import EntryFormScreen
from app.tui.screens.main import MainScreen
from app.tui.widgets.preview import EntryPreview
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.status_line import StatusLine
from engine.core.models import Category, Entry, Source
from engine.services.memory import Memory

FILES = (
    ("docs/SEED_PARITY.md", "Seed parity (issue #20): what the seeds promise and what we ship"),
    ("docs/REMOTE_STORE.md", "When to move to LanceDB's object-store backend for a team"),
    ("docs/operator-manual/argocd/sync-waves.md", "Sync Phases and Waves > How do I configure"),
)


def doc_entries(count: int = 30) -> list[Entry]:
    """Markdown entries of a few files, each at its own line, with long titles."""
    return [
        Entry(
            id=f"{i:032x}",
            content=f"Section {i} of a project document about sync waves and seeds",
            category=Category.GENERAL,
            source=Source.MARKDOWN,
            file_path=FILES[i % len(FILES)][0],
            line_start=1 + 7 * i,
            section_title=FILES[i % len(FILES)][1],
            created_at=f"2026-11-{1 + i % 28:02d}T00:00:00+00:00",
            updated_at=f"2026-11-{1 + i % 28:02d}T00:00:00+00:00",
        )
        for i in range(count)
    ]


def rows(table: ResultsTable) -> list[str]:
    """The text of the table's lines on screen (the header first), down to its last row."""
    visible = table.scrollable_content_region.width
    height = min(table.scrollable_content_region.height, len(table.results) + 1)
    return ["".join(s.text for s in table.render_line(y))[:visible].rstrip() for y in range(height)]


async def test_at_140_columns_file_names_stay_whole_and_titles_take_the_room(
    memory: Memory,
) -> None:
    memory.restore(doc_entries())
    app = make_app(memory)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResultsTable)
        header, *lines = rows(table)
        shown = [r.entry for r in table.results[: len(lines)]]
    title_width = header.index("Source") - header.index("Title") - 2
    assert title_width >= 30, header  # was 20: the filters and a fixed share took it
    for line, entry in zip(lines, shown, strict=True):
        name = f"{entry.file_path.rpartition('/')[2]}:{entry.line_start}"
        assert line.endswith(name), line  # "SEED_P…Y.md:12" before


@pytest.mark.parametrize("size", [(50, 14), (80, 24)])
async def test_a_small_terminal_still_shows_several_results(
    memory: Memory, size: tuple[int, int]
) -> None:
    memory.restore(doc_entries())
    app = make_app(memory)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.query_one(ResultsTable)
        _, *lines = rows(table)
        shown = [r.entry for r in table.results[: len(lines)]]
        preview_shown = screen.query_one(EntryPreview).display
        status = screen.query_one(StatusLine)
        status_text = str(status.render())
        status_room = status.content_region.width
    assert len(lines) >= (8 if size[1] == 14 else 5), lines  # none fitted at 50×14
    for line, entry in zip(lines, shown, strict=True):
        assert line.endswith(f":{entry.line_start}"), line
    assert preview_shown is (size[1] > 14)  # too short for both: the results stay
    assert cell_len(status_text) <= status_room, status_text  # shortened, not cut


async def test_the_preview_comes_back_when_the_terminal_grows(memory: Memory) -> None:
    memory.restore(doc_entries())
    app = make_app(memory)
    async with app.run_test(size=(50, 14)) as pilot:
        await settle(pilot)
        preview = app.screen.query_one(EntryPreview)
        assert not preview.display
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert preview.display and preview.region.height > 5
        await pilot.resize_terminal(150, 16)  # short but wide: beside the results
        await settle(pilot)
        assert preview.display and preview.region.width > 40
        assert len(rows(app.screen.query_one(ResultsTable))) >= 8


async def test_the_secret_warning_in_the_add_form_is_shown_whole(memory: Memory) -> None:
    app = make_app(memory)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EntryFormScreen)
        # A made-up token of GitHub's shape (not a real one).
        form.query_one("#content", TextArea).text = (
            "token ghp_" + "R8vQ2mXz7LpK4nTy9WcB3sHd6FjA1uEo5GiZ"
        )
        await pilot.press("ctrl+s")
        await pilot.pause()
        label = form.query_one("#content-error", Label)
        text = str(label.render())
        dialog = form.query_one("#dialog").content_region
        region = label.region
    assert "secret" in text and "secret_policy" in text
    assert region.x >= dialog.x and region.right <= dialog.right
    assert region.height >= 2  # it wraps: one line cut it at "remove"
    assert cell_len(text) <= region.width * region.height


@pytest.mark.parametrize("size", [(80, 24), (140, 45), (50, 14)])
async def test_toasts_leave_the_status_line_and_the_keys_visible(
    memory: Memory, size: tuple[int, int]
) -> None:
    app = make_app(memory)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot)
        app.notify("Indexed 3 files\nnothing else changed", title="Re-indexed")
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        toasts = [t.region for t in screen.query("Toast")]
        covered = [screen.query_one(StatusLine).region, screen.query_one(Footer).region]
    assert toasts
    for toast in toasts:
        for region in covered:
            assert not toast.overlaps(region), (toast, region)
