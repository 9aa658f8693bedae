"""Long paths keep their file name and line, in ``tail`` and in the results table."""

from __future__ import annotations

from tui_helpers import make_app, settle

from app.tui.widgets.results_table import ResultsTable, tail
from engine.core.models import Category, Entry, Source
from engine.services.memory import Memory


def test_tail_keeps_the_file_name_and_the_line() -> None:
    path = "docs/operator-manual/argocd/applications/sync-waves.md:226"
    for width in (5, 12, 16, 24, 40):
        cut = tail(path, width)
        assert len(cut) <= width
        assert cut.endswith(":226"), cut
        assert "…" in cut
    assert tail(path, 17) == "sync-waves.md:226"
    assert tail(path, 19) == "…/sync-waves.md:226"
    # Shortened at folder boundaries: the first folder and the last ones that fit.
    assert tail(path, 30) == "docs/…/sync-waves.md:226"
    assert tail(path, 40) == "docs/…/applications/sync-waves.md:226"
    assert tail(path, 12) == "…aves.md:226"  # a name too long loses its start
    assert tail(path, 80) == path
    assert tail("SEED_PARITY.md:12", 14) == "…_PARITY.md:12"


async def test_long_paths_keep_their_line_in_the_table(memory: Memory) -> None:
    deep = ".claude/knowledge/operations/runbooks/kubernetes/argocd/sync-waves-and-hooks.md"
    memory.restore(
        [
            Entry(
                id=f"{i:032x}",
                content=f"Sync waves order resources {i}",
                category=Category.DOMAIN,
                source=Source.MARKDOWN,
                file_path=deep,
                line_start=1200 + i,
                created_at="2026-11-24T00:00:00+00:00",
                updated_at="2026-11-24T00:00:00+00:00",
            )
            for i in range(60)  # enough rows for a scrollbar
        ]
    )
    app = make_app(memory)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResultsTable)
        assert table.show_vertical_scrollbar
        visible = table.scrollable_content_region.width  # the scrollbar covers the rest
        for y in range(1, 4):
            line = "".join(s.text for s in table.render_line(y))[:visible]
            number = table.results[y - 1].entry.line_start
            assert line.rstrip().endswith(f"ooks.md:{number}"), line
            assert "…/" in line and "/sync-waves-and-hooks.md:" in line  # the name whole
