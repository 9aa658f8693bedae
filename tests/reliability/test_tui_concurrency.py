"""The terminal app searching while other processes write to the same memory.

The app runs under Pilot in this process on its own :class:`Memory` (in-memory vector
copy, as the real app keeps one); two worker processes add entries meanwhile. Every
search must answer without an error or a degraded retriever, and once the writers are
done the app lists every entry they acknowledged.
"""

from __future__ import annotations

from pathlib import Path

from fakes import FakeEmbedder
from reliability_support import LOCKED, snapshot, spawn
from textual.widgets import Label
from tui_helpers import Recorder, make_app, search_for, settle

from app.tui.widgets.results_pane import ResultsPane
from app.tui.widgets.results_table import ResultsTable
from engine.services.memory import Memory


async def test_the_app_searches_while_two_processes_add(tmp_path: Path) -> None:
    root = tmp_path / "p"
    with Memory.open(root, embedder=FakeEmbedder()) as seed:
        seed.add("the app was open before the writers started")
    memory = Memory.open(root, embedder=FakeEmbedder())
    writers = [spawn("add", root, tag, "40") for tag in ("ta", "tb")]
    recorder = Recorder()
    app = make_app(memory)
    try:
        async with app.run_test(message_hook=recorder) as pilot:
            await settle(pilot)
            rounds = 0
            while any(p.poll() is None for p in writers) or rounds < 3:
                for query in ("writer remembers fact", "entry token", "fact number 3"):
                    await search_for(pilot, query)
                rounds += 1
            outputs = [p.communicate(timeout=300) for p in writers]
            await search_for(pilot, "")  # browse: every entry, newest first
            await settle(pilot)
            header = str(app.screen.query_one("#results-header", Label).render())
            shown = app.screen.query_one(ResultsTable).results
    finally:
        memory.close()
    for proc, (stdout, stderr) in zip(writers, outputs, strict=True):
        assert proc.returncode == 0, stderr[-2000:]
        assert not any(word in stdout + stderr for word in LOCKED)
    ready = recorder.of(ResultsPane.ResultsReady)
    assert len(ready) >= 9
    assert all(not m.warnings for m in ready)  # type: ignore[attr-defined]
    assert "failed" not in header.lower() and "81 entries" in header
    assert len(shown) >= 50
    state = snapshot(root)
    assert len(state.store_ids) == 81
    assert state.mirror_matches_store
