"""The Pilot helpers themselves: settling must outwait a search that a newer one
cancelled (the TUI does that on purpose) and must still report a worker that failed."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App
from textual.worker import WorkerFailed

from tests.app.tui_helpers import settle


class _Workers(App[None]):
    """An app with nothing but a worker group that a newer run replaces."""

    async def slow(self, seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"

    async def broken(self) -> None:
        raise ValueError("the worker broke")


async def test_settle_outwaits_a_worker_a_newer_one_cancelled() -> None:
    app = _Workers()
    async with app.run_test() as pilot:
        first = app.run_worker(app.slow(5.0), group="search", exclusive=True)
        await pilot.pause()
        second = app.run_worker(app.slow(0.05), group="search", exclusive=True)
        await settle(pilot)
        assert first.is_cancelled
        assert second.result == "done"


async def test_settle_still_raises_for_a_failed_worker() -> None:
    app = _Workers()
    async with app.run_test() as pilot:
        app.run_worker(app.broken(), exit_on_error=False)
        with pytest.raises(WorkerFailed, match="the worker broke"):
            await settle(pilot)
