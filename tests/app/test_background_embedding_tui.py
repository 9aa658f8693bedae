"""The terminal app embeds entries that wait for their vector in the background, and stops
doing so when it closes."""

from __future__ import annotations

from tui_helpers import make_app, settle, wait_until

from engine.services.indexing import Indexer
from engine.services.memory import Memory


async def test_the_app_embeds_the_backlog_while_it_runs(memory: Memory) -> None:
    folder = memory.paths.knowledge_dir
    folder.mkdir(parents=True)
    (folder / "deploys.md").write_text("# Deploys\n\nDeploys go out on Tuesdays.\n")
    Indexer(memory).run(embed=False)
    assert memory.vectors_waiting() == 1
    app = make_app(memory)

    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: not memory.vectors_waiting(), "the backlog")

    assert not app.embedding.running  # stopped with the app
    assert memory.search("deploys Tuesdays", mode="vector").results
