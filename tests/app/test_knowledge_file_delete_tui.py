"""The terminal app does not delete an entry indexed from a knowledge file: the file is its
source (Pilot).
"""

from __future__ import annotations

from tui_helpers import make_app, search_for, settle

from app.tui.screens.confirm import ConfirmScreen
from app.tui.widgets.results_table import ResultsTable
from engine.services.indexing import Indexer
from engine.services.memory import Memory


async def test_seed004_tui_does_not_delete_a_knowledge_file_entry(memory: Memory) -> None:
    memory.paths.knowledge_dir.mkdir(parents=True)
    (memory.paths.knowledge_dir / "gears.md").write_text(
        "# Gears\n\nEvery gear is oiled monthly.\n", encoding="utf-8"
    )
    Indexer(memory).run()
    [entry] = memory.list()
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "gear oiled")
        assert app.screen.query_one(ResultsTable).results[0].entry.id == entry.id
        await pilot.press("enter", "d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        [note] = list(app._notifications)
        assert "Not deleted" in str(note.title) and "gears.md" in note.message
    assert memory.get(entry.id) is not None
