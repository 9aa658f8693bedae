"""The export dialog: it collects a format and a path; the main screen writes the file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet

from engine import ExportFormat

EXTENSIONS = {
    ExportFormat.TEXT: "txt",
    ExportFormat.JSON: "json",
    ExportFormat.CSV: "csv",
    ExportFormat.MD: "md",
    ExportFormat.XML: "xml",
}
"""File extension suggested for each format."""


@dataclass(frozen=True, slots=True)
class ExportRequest:
    """Where and how to write the current results."""

    path: Path
    fmt: ExportFormat


def path_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None."""
    if path.is_dir():
        return f"{path} is a folder: add a file name."
    if not path.parent.is_dir():
        return f"Folder {path.parent} does not exist."
    return None


class ExportScreen(ModalScreen[ExportRequest | None]):
    """Choose a format and a file; dismisses with an :class:`ExportRequest` or None.
    ``fmt`` is the format chosen at first (the one used last)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "export", "Export"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(
        self,
        *,
        count: int,
        summary: str,
        base_dir: Path,
        stem: str = "memory-export",
        folder: str = "",
        fmt: ExportFormat = ExportFormat.TEXT,
    ):
        super().__init__()
        self._initial = fmt
        self._count = count
        self._summary = summary
        self._base_dir = base_dir
        self._stem = stem
        self._folder = folder.rstrip("/") + "/" if folder else ""
        self._overwrite_ok: Path | None = None

    def compose(self) -> ComposeResult:
        """Summary, formats, path, messages and buttons."""
        with Vertical(id="dialog", classes="dialog export") as dialog:
            dialog.border_title = "Export results"
            dialog.border_subtitle = "ctrl+s export · Esc cancel"
            yield Label(self._summary, id="export-summary", markup=False)
            yield Label("Format", classes="field-label")
            with RadioSet(id="format"):
                for fmt in ExportFormat:
                    yield RadioButton(fmt.value, value=fmt is self._initial, id=f"fmt-{fmt.value}")
            yield Label("File (relative paths are inside the project)", classes="field-label")
            yield Input(self._default_name(self._initial), id="path")
            yield Label("", id="path-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button(
                    "Export", variant="primary", id="export", disabled=not self._count, compact=True
                )
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        """Start on the format choice."""
        self.query_one(RadioSet).focus()
        if not self._count:
            self._message("Nothing to export: the results are empty.")

    def _default_name(self, fmt: ExportFormat) -> str:
        return f"{self._folder}{self._stem}.{EXTENSIONS[fmt]}"

    @property
    def fmt(self) -> ExportFormat:
        """The chosen format."""
        pressed = self.query_one(RadioSet).pressed_button
        return ExportFormat((pressed.id or "fmt-text").removeprefix("fmt-") if pressed else "text")

    def _message(self, text: str, *, warning: bool = False) -> None:
        label = self.query_one("#path-error", Label)
        label.update(text)
        label.set_class(bool(text), "-visible")
        label.set_class(warning, "-warning")

    @on(RadioSet.Changed)
    def _format_changed(self) -> None:
        path_input = self.query_one("#path", Input)
        stem, dot, ext = path_input.value.rpartition(".")
        if dot and ext in EXTENSIONS.values():
            path_input.value = f"{stem}.{EXTENSIONS[self.fmt]}"

    @on(Input.Changed, "#path")
    def _path_edited(self) -> None:
        self._overwrite_ok = None
        self._message("")

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#export")
    def action_export(self) -> None:
        """Check the path, then dismiss with the request."""
        if not self._count:
            return
        text = self.query_one("#path", Input).value.strip()
        if not text:
            self._message("Enter a file name.")
            return
        path = Path(text).expanduser()
        path = path if path.is_absolute() else self._base_dir / path
        problem = path_problem(path)
        if problem:
            self._message(problem)
            return
        if path.exists() and self._overwrite_ok != path:
            self._overwrite_ok = path
            self._message(f"{path.name} exists: press Export again to replace it.", warning=True)
            return
        self.dismiss(ExportRequest(path, self.fmt))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Close without exporting."""
        self.dismiss(None)
