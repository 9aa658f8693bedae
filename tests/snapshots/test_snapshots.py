"""Snapshots of the app's main screens at 80×24 and 160×48, the results also at 50×14
(pytest-textual-snapshot).

The memory is deterministic (fixed ids, dates and fake vectors), so the pictures are
stable across runs. Update them with ``pytest tests/snapshots --snapshot-update`` after
an intended change, and look at the report before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_memory import demo_memory
from textual.pilot import Pilot
from tui_helpers import settle as settle_app

from app.tui.factory import build_app
from engine.services.memory import Memory

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]
SMALL = pytest.param((50, 14), id="50x14")
"""The short layout: results only, fewer chrome lines."""


def steady_cursors(pilot: Pilot[object]) -> None:
    """Stop text cursors blinking, so that a picture never catches one half-way."""
    for widget in pilot.app.screen.query("Input, TextArea"):
        widget.cursor_blink = False  # type: ignore[attr-defined]


async def settle(pilot: Pilot[object]) -> None:
    """Wait until searches and counts have finished and the preview follows the selection:
    no worker running, no search debounce or preview timer pending (``tui_helpers.settle``)."""
    steady_cursors(pilot)
    await settle_app(pilot)
    steady_cursors(pilot)


def search(query: str, *keys: str):  # noqa: ANN201 - a run_before callback
    """A ``run_before`` that searches for ``query`` and then presses ``keys``."""

    async def run(pilot: Pilot[object]) -> None:
        await settle(pilot)
        await pilot.press(*query)
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)

    return run


@pytest.fixture
def demo(tmp_path: Path) -> Memory:
    """The deterministic demo memory."""
    return demo_memory(tmp_path)


@pytest.mark.parametrize("size", SIZES)
def test_empty_memory(snap_compare, memory: Memory, size: tuple[int, int]) -> None:
    assert snap_compare(build_app(memory=memory), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", [*SIZES, SMALL])
def test_results_with_preview(snap_compare, demo: Memory, size: tuple[int, int]) -> None:
    assert snap_compare(build_app(memory=demo), terminal_size=size, run_before=search("lancedb"))


@pytest.mark.parametrize("size", SIZES)
def test_export_modal(snap_compare, demo: Memory, size: tuple[int, int]) -> None:
    run = search("lancedb", "ctrl+s")
    assert snap_compare(build_app(memory=demo), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_add_form_with_validation_error(snap_compare, demo: Memory, size: tuple[int, int]) -> None:
    run = search("", "ctrl+n", "ctrl+s")
    assert snap_compare(build_app(memory=demo), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare, demo: Memory, size: tuple[int, int]) -> None:
    assert snap_compare(build_app(memory=demo), terminal_size=size, run_before=search("", "f1"))
