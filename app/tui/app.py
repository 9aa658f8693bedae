"""The Textual application: styles, the main screen, the command palette, logging."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

import tui_styles
from app.tui.screens.main import MainScreen
from engine import SearchMode, printable

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from engine import Memory

STYLES = Path(tui_styles.__file__).parent
"""Where the installed ``.tcss`` files are."""

PALETTE_ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("Search mode: hybrid", "Fuse vector and keyword rankings (F2)", "set_mode('hybrid')"),
    ("Search mode: keyword", "BM25 over the words typed (F3)", "set_mode('keyword')"),
    ("Search mode: vector", "Compare meanings with the embedding model (F4)", "set_mode('vector')"),
    ("Add entry", "Write a new entry (ctrl+n)", "add_entry"),
    ("Edit entry", "Edit the selected entry; it is re-embedded (e)", "results.edit_entry"),
    ("Delete entry", "Delete the selected entry, with undo (d)", "results.delete_entry"),
    ("Undo delete", "Put back the last deleted entry (ctrl+z)", "undo_delete"),
    ("Promote entry", "Move the selected entry into a knowledge file (p)", "results.promote_entry"),
    ("Open file in editor", "Open the selected entry's file in $EDITOR (o)", "results.open_source"),
    ("Export results", "Write the results as text, json, csv, md or xml (ctrl+s)", "export"),
    ("Re-index knowledge", "Index what changed under .claude/knowledge (ctrl+r)", "reindex"),
    ("Watch knowledge files", "Index edits as they are saved; again to stop (F5)", "toggle_watch"),
    ("Stale entries", "Only entries whose cited code changed; again for all (F6)", "toggle_stale"),
    (
        "Refresh stale entry",
        "Mark a stale note reviewed, or re-discover (f)",
        "results.refresh_entry",
    ),
    ("Filters", "Go to the category and source filters (ctrl+g)", "focus_filters"),
    ("Help", "Keys and concepts (F1)", "help"),
)
"""(title, help, action) offered by the command palette: an action of the main screen,
or of its results pane (``results.``) for those on the selected entry."""


class MemoryApp(App[None]):
    """Browse, search and curate one project's memory."""

    CSS_PATH: ClassVar[list[str | Path]] = [STYLES / "app.tcss", STYLES / "dialogs.tcss"]
    TITLE = "memory-tui"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
    ]

    def __init__(
        self, memory: Memory, *, mode: SearchMode | None = None, owns_memory: bool = False
    ) -> None:
        super().__init__()
        self.memory = memory
        """The engine's front door, shared by every screen."""
        self._owns_memory = owns_memory
        self._mode = mode or memory.config.search_mode
        self._saved_handlers: list[logging.Handler] = []
        self.sub_title = str(memory.paths.root)
        self.embedding = memory.background_embedder()
        """Embeds entries that wait for their vector (two-phase indexing) while the app
        runs; the re-index action wakes it."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Notify, with what the memory supplied (titles, paths) shown as it is: never read
        as markup, escape sequences made inert. Every widget's ``notify`` lands here."""
        super().notify(
            printable(message), title=printable(title), severity=severity, timeout=timeout,
            markup=False,
        )  # fmt: skip

    def on_mount(self) -> None:
        """Route logging to a file while the screen is ours, then show the main screen."""
        self._log_to_file()
        self.push_screen(MainScreen(self.memory, mode=self._mode))
        self.embedding.start()

    def on_unmount(self) -> None:
        """Stop embedding, close the memory if this app opened it, and give logging back."""
        self.embedding.stop()
        if self._owns_memory:
            self.memory.close()
        root = logging.getLogger()
        for handler in root.handlers[:]:
            root.removeHandler(handler)
            handler.close()
        for handler in self._saved_handlers:
            root.addHandler(handler)

    def _log_to_file(self) -> None:
        # A log line written to stderr would tear through the screen.
        root = logging.getLogger()
        self._saved_handlers = root.handlers[:]
        for handler in self._saved_handlers:
            root.removeHandler(handler)
        try:
            self.memory.paths.memory_dir.mkdir(parents=True, exist_ok=True)
            handler: logging.Handler = logging.FileHandler(
                self.memory.paths.log_path, encoding="utf-8"
            )
        except OSError:
            handler = logging.NullHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        root.addHandler(handler)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's commands, plus every action of the main screen."""
        yield from super().get_system_commands(screen)
        if isinstance(screen, MainScreen):
            for title, help_text, action in PALETTE_ACTIONS:
                yield SystemCommand(title, help_text, self._runner(screen, action))

    @staticmethod
    def _runner(screen: MainScreen, action: str) -> object:
        async def run() -> None:
            target, _, name = action.rpartition(".")
            await (screen.results if target == "results" else screen).run_action(name)

        return run
