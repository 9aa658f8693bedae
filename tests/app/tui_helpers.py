"""Helpers of the Pilot tests: seed data, a message recorder, waiting for workers."""

from __future__ import annotations

from textual.message import Message
from textual.pilot import Pilot

from app.tui.app import MemoryApp
from app.tui.factory import build_app
from app.tui.screens.main import DEBOUNCE_SECONDS, PREVIEW_DELAY
from engine.services.memory import Memory

SEEDS = (
    ("LanceDB filters need double quotes around camelCase columns", "gotcha", ["lancedb"]),
    ("The engine is a headless core; every face talks to Memory only", "architecture", []),
    ("Search results are fused with Reciprocal Rank Fusion, k = 60", "pattern", ["rrf"]),
    ("Keyword search quotes every term so FTS5 syntax never raises", "gotcha", ["fts5"]),
    ("The TUI loads the embedding model in a background worker", "component", []),
)
"""(content, category, keywords) of the seeded entries, oldest first."""


class Recorder:
    """Collects every message the app handles (``run_test(message_hook=...)``)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._seen: set[int] = set()

    def __call__(self, message: Message) -> None:
        # A bubbling message is seen once per node it passes through: record it once.
        if id(message) not in self._seen:
            self._seen.add(id(message))
            self.messages.append(message)

    def of(self, kind: type[Message]) -> list[Message]:
        """Messages of one type, in order."""
        return [m for m in self.messages if isinstance(m, kind)]


async def settle(pilot: Pilot[object], *, rounds: int = 20) -> None:
    """Wait past the debounce and until no worker runs and the handlers have caught up."""
    await pilot.pause(DEBOUNCE_SECONDS * 2)
    for _ in range(rounds):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers):
            await pilot.pause(PREVIEW_DELAY * 2)  # the preview follows the selection
            return


async def search_for(pilot: Pilot[object], text: str) -> None:
    """Put ``text`` in the query input in one edit (one search), then settle."""
    from app.tui.widgets.search_bar import SearchBar

    pilot.app.screen.query_one(SearchBar).value = text
    await settle(pilot)


def make_app(memory: Memory) -> MemoryApp:
    """The app as the CLI builds it, on ``memory``."""
    return build_app(memory=memory)
