"""Markdown tables in the preview keep their columns legible: no word broken, and a table
too wide for the pane scrolls sideways."""

from __future__ import annotations

import pytest
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.widgets.markdown import Markdown
from tui_helpers import make_app, settle

from app.tui.widgets.preview import EntryPreview
from engine.services.memory import Memory

BENCH_TABLE = """Terminal app, on the 2-core machine:

| Bench | Mode | p50 ms | p90 ms | Entries | Machine | Notes |
|---|---|---|---|---|---|---|
| tui_tmux | keyword | 58 | 72 | 10,000 | 2-core | launch to a usable screen 1.13 s |
| tui_tmux | hybrid | 122 | 154 | 10,000 | 2-core | the hybrid search itself took 44 ms |
"""
WORDS = ("tui_tmux", "keyword", "hybrid", "10,000", "2-core", "Machine", "Entries", "launch")


def cells(*texts: str) -> list[Content]:
    return [Content(t) for t in texts]


def test_columns_fit_when_they_can_and_never_break_a_word() -> None:
    from app.tui.widgets.markdown_view import column_floor, column_widths

    headers = cells("Key", "Action")
    rows = [cells("F2 · F3", "hybrid, keyword or vector search as you type")]
    assert column_widths(headers, rows, 80) == [9, 46]  # as wide as their text
    narrow = column_widths(headers, rows, 30)
    assert sum(narrow) + 1 == 30 and narrow[0] == 9  # the long column wraps
    squeezed = column_widths(cells("a", "b", "c"), [cells("lancedb", "sqlite", "onnx")], 6)
    assert squeezed == [9, 8, 6]  # wider than the room: the table scrolls
    assert column_floor(cells("https://" + "x" * 80)) == 32  # a long word folds past 30


@pytest.mark.parametrize("size", [(140, 45), (80, 24)])
async def test_a_wide_table_in_the_preview_keeps_its_words_whole(
    memory: Memory, size: tuple[int, int]
) -> None:
    memory.add(BENCH_TABLE, category="pattern")
    app = make_app(memory)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        body = app.screen.query_one(EntryPreview).query_one("#preview-body", Markdown)
        grid = body.query_one("MarkdownTableContent")
        cell_texts = {str(c.render()): c.region.width for c in grid.children}
        pane = body.content_region.width
        scrollers = body.query(ScrollableContainer)
        scroll_room = max((s.max_scroll_x for s in scrollers), default=0)
        cells_right = max(c.region.right for c in grid.children)
        table = grid.region
        scrolled = 0.0
        if scroll_room:  # the keys reach the rest: Tab to the table, then →
            scroller = body.query_one(ScrollableContainer)
            app.screen.set_focus(app.screen.query_one(EntryPreview))
            await pilot.press("tab")
            assert app.focused is scroller
            await pilot.press("right", "right")
            await pilot.pause()
            scrolled = scroller.scroll_x
    assert scrolled > 0 or not scroll_room
    for word in WORDS:
        widths = [w for text, w in cell_texts.items() if word in text.split()]
        assert widths and all(w >= len(word) + 2 for w in widths), (word, cell_texts)
    assert scroll_room > 0 or table.width <= pane  # the rest is one scroll away
    assert cells_right < table.right  # the right-hand rule is inside the table


async def test_a_table_that_fits_fills_the_preview_with_its_frame_whole(memory: Memory) -> None:
    rows = "\n".join(
        f"| F{i} · ctrl+{chr(97 + i)} | does the thing number {i} to the selected entry, "
        "and says so in the status line |"
        for i in range(2, 8)
    )
    memory.add(f"Keys of the app:\n\n| Key | Action |\n|---|---|\n{rows}\n", category="general")
    app = make_app(memory)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        body = app.screen.query_one(EntryPreview).query_one("#preview-body", Markdown)
        grid = body.query_one("MarkdownTableContent")
        scroll_room = max((s.max_scroll_x for s in body.query(ScrollableContainer)), default=0)
        cells_right = max(c.region.right for c in grid.children)
        table = grid.region
        keys = [c.region.width for c in grid.children][::2]
        pane = body.content_region
    assert scroll_room == 0 and table.right <= pane.right  # no scrolling needed
    assert cells_right < table.right  # the frame is drawn whole
    assert min(keys) >= len("F2 · ctrl+c") + 2  # the short key cells stay on one line
