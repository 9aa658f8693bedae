"""The app's shape: each message is nested in the widget that posts it, no class of the
app is assembled from mixins, and each widget reports its own workers' failures."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.message import Message
from textual.widgets import TextArea
from tui_helpers import make_app, search_for, wait_until

import app.tui
from app.tui.app import PALETTE_ACTIONS
from app.tui.screens.entry_form import EntryFormScreen
from app.tui.screens.export import ExportRequest
from app.tui.screens.main import MainScreen
from app.tui.widgets.results_pane import ResultsPane
from engine import ExportFormat
from engine.services.memory import Memory


def app_classes() -> list[type]:
    """Every class defined in a module of ``app.tui`` (nested ones included)."""
    found: list[type] = []

    def walk(owner: object, module: str) -> None:
        for _, value in inspect.getmembers(owner, inspect.isclass):
            if value.__module__ == module and value not in found:
                found.append(value)
                walk(value, module)

    for info in pkgutil.walk_packages(app.tui.__path__, "app.tui."):
        module = importlib.import_module(info.name)
        walk(module, info.name)
    return found


def test_every_message_is_nested_in_a_class() -> None:
    classes = app_classes()
    messages = [c for c in classes if issubclass(c, Message)]
    assert len(messages) >= 15  # the walk found them
    loose = [f"{c.__module__}.{c.__qualname__}" for c in messages if "." not in c.__qualname__]
    assert not loose, f"messages outside the widget that posts them: {loose}"
    owners = {c.__qualname__.split(".")[0] for c in messages}
    assert "ResultsPane" in owners and "Curation" in owners


def test_no_class_of_the_app_mixes_in_another() -> None:
    mixed = {
        c.__qualname__: [b.__qualname__ for b in c.__bases__ if b.__module__.startswith("app.")]
        for c in app_classes()
    }
    assert not {name: bases for name, bases in mixed.items() if len(bases) > 1}


async def test_each_widget_says_why_its_worker_failed(seeded: Memory) -> None:
    # A worker's state changes reach only the widget that started it: the sidebar's
    # count and the results pane's export must each say why they failed.
    def broken(**kwargs: object) -> object:
        raise OSError("the mirror went away")

    seeded.counts = broken  # type: ignore[method-assign]
    app = make_app(seeded)

    def errors() -> dict[str, str]:
        return {str(n.title): str(n.message) for n in app._notifications if n.severity == "error"}

    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: "Could not count" in errors(), "the count's failure")
        pane = app.screen.query_one(ResultsPane)
        missing = seeded.paths.root / "no" / "such" / "x.txt"
        pane.write_export(ExportRequest(missing, ExportFormat.TEXT), pane.table.results, "")
        await wait_until(pilot, lambda: "Could not export" in errors(), "the export's failure")
    assert errors()["Could not count"] == "OSError: the mirror went away"
    assert "No such file or directory" in errors()["Could not export"]


async def test_every_palette_command_reaches_the_widget_that_acts(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb")
        screen = app.screen
        assert isinstance(screen, MainScreen)
        for _, _, action in PALETTE_ACTIONS:
            target, _, name = action.rpartition(".")
            node = screen.results if target == "results" else screen
            assert callable(getattr(node, f"action_{name.split('(')[0]}", None)), action
        commands = {c.title: c.callback for c in app.get_system_commands(screen)}
        await commands["Edit entry"]()  # type: ignore[operator]
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, EntryFormScreen) and app.screen.query("#content"),
            "the form",
        )
        assert "LanceDB" in app.screen.query_one("#content", TextArea).text
