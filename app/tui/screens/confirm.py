"""A yes/no question in a modal dialog, with its keys on the buttons."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ConfirmScreen(ModalScreen[bool]):
    """Ask a question; dismisses with True (y, or Enter on the confirm button) or False
    (n, Escape, or Enter on "Cancel", which has the focus at first: the safe default).
    The buttons name their keys, and the border says what Enter and Tab do."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, question: str, *, confirm_label: str = "Yes") -> None:
        super().__init__()
        self._title = title
        self._question = question
        self._confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        with Vertical(id="dialog", classes="dialog confirm") as dialog:
            dialog.border_title = self._title
            dialog.border_subtitle = "Enter: the highlighted button · Tab: the other"
            yield Label(self._question, id="question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self._confirm_label} (y)", variant="error", id="yes", compact=True)
                yield Button("Cancel (n/Esc)", id="no", compact=True)

    def on_mount(self) -> None:
        """Focus "Cancel" so that a stray Enter does not confirm."""
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer from the keyboard."""
        self.dismiss(yes)
