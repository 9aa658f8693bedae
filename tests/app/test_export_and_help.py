"""Pilot tests of export (all five formats parse) and of discoverability (help, palette)."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from textual.command import CommandList, CommandPalette
from textual.widgets import Input, Label, RadioSet
from tui_helpers import Recorder, make_app, search_for, settle, wait_until

from app.tui.app import PALETTE_ACTIONS
from app.tui.screens.entry_form import EntryFormScreen
from app.tui.screens.export import ExportScreen
from app.tui.screens.help import HelpScreen
from app.tui.screens.main import MainScreen
from app.tui.widgets.results_pane import ResultsPane
from engine.output.export import ExportFormat
from engine.services.memory import Memory


def check_parses(fmt: ExportFormat, text: str, count: int) -> None:
    """Each format is well formed and holds ``count`` results."""
    if fmt is ExportFormat.JSON:
        assert len(json.loads(text)) == count
    elif fmt is ExportFormat.CSV:
        assert len(list(csv.DictReader(io.StringIO(text)))) == count
    elif fmt is ExportFormat.XML:
        root = ET.fromstring(text)
        assert root.get("query") == "lancedb fts5" and len(root) == count
    elif fmt is ExportFormat.MD:
        assert text.startswith('## Results for "lancedb fts5"')
        assert text.count("\n### ") == count  # a section per result
    else:
        assert text.startswith('Results for "lancedb fts5"') and "\n1. [" in text


async def test_export_writes_each_format(seeded: Memory, project: Path, recorder: Recorder) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await pilot.press("f3")  # keyword: either word is enough
        await search_for(pilot, "lancedb fts5")
        count = len(app.screen.query_one("#results").results)
        assert count >= 2
        for fmt in ExportFormat:
            await pilot.press("ctrl+s")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, ExportScreen)
            dialog.query_one(f"#fmt-{fmt.value}").value = True
            await pilot.pause()
            assert dialog.query_one(RadioSet).pressed_button.id == f"fmt-{fmt.value}"
            path_input = dialog.query_one("#path", Input)
            assert path_input.value.endswith({"text": ".txt"}.get(fmt.value, f".{fmt.value}"))
            path_input.value = f"out/results.{fmt.value}"
            (project / "out").mkdir(exist_ok=True)
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert isinstance(app.screen, MainScreen)
            written = recorder.of(ResultsPane.ExportWritten)[-1]
            assert written.path == project / "out" / f"results.{fmt.value}"
            assert written.count == count
            check_parses(fmt, written.path.read_text(encoding="utf-8"), count)


async def test_the_default_export_goes_where_it_is_never_indexed(
    seeded: Memory, project: Path, recorder: Recorder
) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#fmt-md").value = True
        await pilot.pause()
        assert dialog.query_one("#path", Input).value == ".claude/memory/exports/memory-export.md"
        await pilot.press("ctrl+s")
        await settle(pilot)
        written = recorder.of(ResultsPane.ExportWritten)[-1].path
    assert written == project / ".claude/memory/exports/memory-export.md"
    from engine.services.indexing import Indexer

    assert all(".claude/memory" not in rel for rel, _ in Indexer(seeded).scan())


async def test_export_dialog_checks_the_path(seeded: Memory, project: Path) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        message = dialog.query_one("#path-error", Label)
        dialog.query_one("#path", Input).value = "missing/dir/out.txt"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "does not exist" in str(message.render())
        (project / "taken.txt").write_text("keep me")
        dialog.query_one("#path", Input).value = "taken.txt"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "press Export again" in str(message.render())
        assert (project / "taken.txt").read_text() == "keep me"
        await pilot.press("ctrl+s")  # confirmed
        await settle(pilot)
        assert (project / "taken.txt").read_text().startswith('Results for "lancedb"')


async def test_help_screen_and_command_palette(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MainScreen)
        titles = {command.title for command in app.get_system_commands(screen)}
        assert {title for title, _, _ in PALETTE_ACTIONS} <= titles
        footer_keys = {b.key for _, b, enabled, _ in screen.active_bindings.values() if b.show}
        assert {"ctrl+n", "ctrl+s", "ctrl+r", "f1"} <= footer_keys
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.press(*"add entry")
        commands = app.screen.query_one(CommandList)

        def first_hit() -> str:
            if commands.highlighted is None:
                return ""
            return str(commands.get_option_at_index(commands.highlighted).prompt)

        # The palette searches in a worker: Enter runs the command highlighted by then.
        await wait_until(pilot, lambda: first_hit().startswith("Add entry"), "the command")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, EntryFormScreen), "the form")


async def test_the_export_dialog_offers_the_format_used_last(
    seeded: Memory, project: Path, recorder: Recorder
) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#fmt-csv").value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert recorder.of(ResultsPane.ExportWritten)[-1].path.suffix == ".csv"
        await pilot.press("ctrl+s")  # the next export, in the same session
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        pressed = dialog.query_one(RadioSet).pressed_button
        assert pressed is not None and pressed.id == "fmt-csv"
        assert dialog.query_one("#path", Input).value.endswith("memory-export.csv")
        await pilot.press("escape")  # a cancelled dialog changes nothing
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        pressed = app.screen.query_one(RadioSet).pressed_button
        assert pressed is not None and pressed.id == "fmt-csv"
