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
    assert seeded.get(entry.id) == entry and entry.source is Source.MANUAL
    assert outside.read_text(encoding="utf-8") == "# Someone else's\n"
    assert [p.name for p in knowledge.iterdir()] == ["gotchas.md"]


async def test_status_line_counts_unshared_notes_and_f7_shows_them(memory: Memory) -> None:
    from app.tui.widgets.filter_list import FilterList
    from app.tui.widgets.status_line import StatusLine

    agent = memory.add("Agents: seed scripts need migrations", source="session").entry
    mine = memory.add("Mine: deploys run on Fridays", source="manual").entry
    memory.add("The parser lives in src/parse.py", category="discovery", source="discovery")
    app = make_app(memory)
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await settle(pilot)
        status = app.screen.query_one(StatusLine)
        line = str(status.render())
        shown = []
        for _ in range(3):
            await pilot.press("f7")
            await settle(pilot)
            ids = {r.entry.id for r in app.screen.query_one(ResultsTable).results}
            shown.append((app.screen.query_one("#sources", FilterList).active, ids))
        notes = [str(n.message) for n in app._notifications]

    assert status.notes == 2
    assert "2 notes not shared (F7)" in line
    assert shown[0] == ("session", {agent.id})
    assert shown[1] == ("manual", {mine.id})
    assert shown[2][0] is None and len(shown[2][1]) == 3
    assert any("Showing agents' notes" in n and "promote --all-notes" in n for n in notes)


async def test_the_first_f7_shows_the_notes_the_status_line_counts(memory: Memory) -> None:
    from app.tui.widgets.filter_list import FilterList
    from app.tui.widgets.status_line import StatusLine

    mine = memory.add("Mine: run make lint before pushing", source="manual").entry
    memory.add("The parser lives in src/parse.py", category="discovery", source="discovery")
    app = make_app(memory)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        line = str(app.screen.query_one(StatusLine).render())
        shown = []
        for _ in range(2):
            await pilot.press("f7")
            await settle(pilot)
            ids = {r.entry.id for r in app.screen.query_one(ResultsTable).results}
            shown.append((app.screen.query_one("#sources", FilterList).active, ids))
        notes = [str(n.message) for n in app._notifications]

    assert "1 note not shared (F7)" in line
    # No agent's note: the first press goes to yours (it showed 0 agents' notes).
    assert shown[0] == ("manual", {mine.id})
    assert shown[1][0] is None and len(shown[1][1]) == 2  # then everything again
    assert any("Showing your notes" in n for n in notes)


async def test_f7_without_notes_says_so_and_keeps_the_list(memory: Memory) -> None:
    from app.tui.widgets.filter_list import FilterList

    memory.add("The parser lives in src/parse.py", category="discovery", source="discovery")
    app = make_app(memory)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        active = app.screen.query_one("#sources", FilterList).active
        count = len(app.screen.query_one(ResultsTable).results)
        notes = [str(n.message) for n in app._notifications]

    assert active is None and count == 1
    assert any("No personal notes" in n for n in notes)
