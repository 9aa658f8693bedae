"""Helpers of the Pilot tests: seed data, a message recorder, waiting for workers."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerState

from app.tui.app import MemoryApp
from app.tui.factory import build_app
from app.tui.screens.main import MainScreen
from app.tui.widgets.preview import EntryPreview
from app.tui.widgets.results_pane import ResultsPane
from engine.services.memory import Memory

WAIT_LIMIT = 30.0
"""Seconds a wait may take before the test fails (generous: a loaded machine is slow)."""
POLL = 0.01
"""Seconds the app runs between two looks at the condition waited for."""
QUIET_ROUNDS = 5
"""Rounds of message handling in a row that must find the app idle for it to be settled:
each round handles the messages queued when it began, and one of them may post the next
(a bubbling message moves one widget up per round)."""

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


async def wait_until(
    pilot: Pilot[object], condition: Callable[[], object], what: str, *, timeout: float = WAIT_LIMIT
) -> None:
    """Let the app run until ``condition()`` is true; fail, naming ``what``, after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await pilot.pause(POLL)


def busy(app: App[object]) -> bool:
    """Whether work is under way: a worker not finished, or on a main screen a search
    waiting out its debounce or a preview waiting to follow the selection."""
    if any(not w.is_finished for w in app.workers):
        return True
    return any(
        screen.query_one(ResultsPane).waiting or screen.query_one(EntryPreview).waiting
        for screen in app.screen_stack
        if isinstance(screen, MainScreen)
    )


async def workers_done(app: App[object]) -> None:
    """Wait for every worker the app has now. A worker cancelled on purpose (a newer
    search replaces an older one in its exclusive group) counts as done; a failed one
    still raises."""
    for worker in list(app.workers):
        if worker.state == WorkerState.PENDING:
            continue  # not started yet: busy() sees it and the next round waits for it
        try:
            await worker.wait()
        except WorkerCancelled:
            continue


async def settle(pilot: Pilot[object], *, timeout: float = WAIT_LIMIT) -> None:
    """Wait until the app is idle (:func:`busy` is false) and stays so while the messages
    already posted are handled: results shown, the preview following the selection."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while quiet < QUIET_ROUNDS:
        if time.monotonic() > deadline:
            raise AssertionError(f"the app was still busy after {timeout:g} s")
        await workers_done(pilot.app)
        await pilot.pause()
        if busy(pilot.app):
            quiet = 0
            await pilot.pause(POLL)  # timers fire while the app runs
        else:
            quiet += 1


async def search_for(pilot: Pilot[object], text: str) -> None:
    """Put ``text`` in the query input in one edit (one search), then settle."""
    from app.tui.widgets.search_bar import SearchBar

    screen = pilot.app.screen
    screen.query_one(SearchBar).value = text
    await wait_until(
        pilot,
        lambda: screen.state.query == text,  # type: ignore[attr-defined]
        f"the search for {text!r} to be asked",
    )
    await settle(pilot)


def make_app(memory: Memory) -> MemoryApp:
    """The app as the CLI builds it, on ``memory``."""
    return build_app(memory=memory)
