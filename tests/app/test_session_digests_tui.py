"""Issue 47 in the terminal app: a session's digest, captured by the hook's capture path,
is one of the agents' personal notes F7 shows, and promotable like any."""

from __future__ import annotations

import json
from pathlib import Path

from fakes import FakeEmbedder
from session_transcripts import retry_session
from tui_helpers import make_app, settle

from app.sessions.capture import capture
from app.tui.widgets.filter_list import FilterList
from app.tui.widgets.results_table import ResultsTable
from engine import Config, Memory


async def test_f7_shows_a_captured_digest_with_the_agents_notes(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    with Memory.open(root, embedder=FakeEmbedder(384)) as seed:
        mine = seed.add("Mine: deploys run on Fridays", source="manual").entry
    session = retry_session(Path.home(), root)
    session.save()
    done = capture(json.loads(session.hook_input("SessionEnd", reason="other")), root, Config())
    assert done == "added"

    memory = Memory.open(root, embedder=FakeEmbedder(384))
    try:
        app = make_app(memory)
        async with app.run_test(size=(160, 40), notifications=True) as pilot:
            await settle(pilot)
            await pilot.press("f7")
            await settle(pilot)
            shown = [r.entry for r in app.screen.query_one(ResultsTable).results]
            active = app.screen.query_one("#sources", FilterList).active
    finally:
        memory.close()

    assert active == "session" and mine.id not in [e.id for e in shown]
    [digest] = shown
    assert digest.section_title.startswith("Session 2026-11-28 on branch main: Make the HTTP")
    assert "session-digest" in digest.keywords and not digest.promoted
