"""The add/edit form: content, category and keywords, with inline validation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, TextArea

from engine import (
    MAX_CONTENT_LENGTH,
    MAX_KEYWORDS,
    Category,
    EngineError,
    Entry,
    Source,
    printable_line,
)

Validator = Callable[[str], object]
"""Checks content as the engine will (raises :class:`EngineError` when it is refused)."""


@dataclass(frozen=True, slots=True)
class EntryDraft:
    """What the form collected: the caller adds or updates the entry."""

    content: str
    category: Category
    keywords: tuple[str, ...]


def split_keywords(text: str) -> tuple[str, ...]:
    """Comma-separated keywords, trimmed, without blanks or repeats."""
    return tuple(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))


def content_problem(content: str, validate: Validator | None) -> str | None:
    """Why ``content`` cannot be stored, or None."""
    if not content.strip():
        return "Content is empty: write what should be remembered."
    if len(content) > MAX_CONTENT_LENGTH:
        return f"Content is {len(content):,} characters; the limit is {MAX_CONTENT_LENGTH:,}."
    if validate is not None:
        try:
            validate(content)
        except EngineError as exc:
            return exc.message[:1].upper() + exc.message[1:]
    return None


class EntryFormScreen(ModalScreen[EntryDraft | None]):
    """Add a new entry (``entry`` None) or edit one; dismisses with the draft or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel"),
    ]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (36, "-tall")]

    def __init__(self, entry: Entry | None = None, *, validate: Validator | None = None) -> None:
        super().__init__()
        self._entry = entry
        self._validate = validate

    def compose(self) -> ComposeResult:
        """The three fields, their error labels and the buttons."""
        entry = self._entry
        with Vertical(id="dialog", classes="dialog form") as dialog:
            dialog.border_title = "Edit entry" if entry else "Add entry"
            dialog.border_subtitle = "ctrl+s save · Esc cancel"
            if entry is not None and entry.source is Source.MARKDOWN:
                yield Label(
                    f"This entry comes from {printable_line(entry.location)}: the next re-index "
                    "replaces edits made here. Open the file (o) to change it for good.",
                    classes="note",
                    markup=False,
                )
            yield Label("Content", classes="field-label")
            yield TextArea(entry.content if entry else "", id="content", soft_wrap=True)
            yield Label("", id="content-error", classes="error")
            with Horizontal(classes="row"):
                with Vertical(classes="column"):
                    yield Label("Category", classes="field-label")
                    yield Select(
                        [(c.value, c) for c in Category],
                        value=entry.category if entry else Category.GENERAL,
                        allow_blank=False,
                        id="category",
                    )
                with Vertical(classes="column wide"):
                    yield Label("Keywords", classes="field-label")
                    yield Input(
                        ", ".join(entry.keywords) if entry else "",
                        placeholder=f"comma-separated, at most {MAX_KEYWORDS}",
                        id="keywords",
                    )
            yield Label("", id="keywords-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Save", variant="primary", id="save", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        """Start in the content field."""
        self.query_one("#content", TextArea).focus()

    def _show_error(self, field: str, message: str | None) -> None:
        label = self.query_one(f"#{field}-error", Label)
        label.update(message or "")
        label.set_class(bool(message), "-visible")
        self.query_one(f"#{field}").set_class(bool(message), "-invalid")

    def draft(self) -> EntryDraft | None:
        """The draft when every field is valid; otherwise shows the problems and returns None."""
        content = self.query_one("#content", TextArea).text
        keywords = split_keywords(self.query_one("#keywords", Input).value)
        content_error = content_problem(content, self._validate)
        keyword_error = (
            f"{len(keywords)} keywords; at most {MAX_KEYWORDS} are allowed."
            if len(keywords) > MAX_KEYWORDS
            else None
        )
        self._show_error("content", content_error)
        self._show_error("keywords", keyword_error)
        if content_error or keyword_error:
            self.query_one("#content" if content_error else "#keywords").focus()
            return None
        category = self.query_one("#category", Select).value
        return EntryDraft(content.strip(), Category(str(category)), keywords)

    @on(TextArea.Changed, "#content")
    def _content_edited(self) -> None:
        self._show_error("content", None)

    @on(Input.Changed, "#keywords")
    def _keywords_edited(self) -> None:
        self._show_error("keywords", None)

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        """Validate, then dismiss with the draft."""
        draft = self.draft()
        if draft is not None:
            self.dismiss(draft)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)
