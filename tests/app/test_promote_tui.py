"""Promote from the terminal app when the knowledge folder is hostile: a clear error, the
entry kept, nothing written outside."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import make_app, search_for, settle

from app.tui.widgets.results_table import ResultsTable
from engine.core.models import Source
from engine.services.memory import Memory


async def test_promote_through_a_symlinked_gotchas_md_explains_and_keeps_the_entry(
    seeded: Memory, project: Path
) -> None:
    outside = project.parent / f"{project.name}-outside.md"
    outside.write_text("# Someone else's\n", encoding="utf-8")
    knowledge = project / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gotchas.md").symlink_to(outside)
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await search_for(pilot, "lancedb")
        entry = app.screen.query_one(ResultsTable).results[0].entry
        await pilot.press("enter", "p")
        await settle(pilot)
        messages = [str(n.message) for n in app._notifications if n.severity == "error"]

    assert any("gotchas.md: is a symlink" in m for m in messages), messages
    assert seeded.mirror.get(entry.id) == entry and entry.source is Source.MANUAL
    assert outside.read_text(encoding="utf-8") == "# Someone else's\n"
    assert [p.name for p in knowledge.iterdir()] == ["gotchas.md"]
