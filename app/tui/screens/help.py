"""The help screen: what the app does and every key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# memory-tui

Search and curate this project's memory: the markdown under `.claude/knowledge/` and the
entries that agents and people add.

| Key | Action |
|---|---|
| type | search as you type (no query: all entries, newest first) |
| ↓ / Enter | from the query to the results; ↑ ↓ move, Esc or / back to the query |
| F2 F3 F4 / ctrl+t | hybrid, keyword, vector search / next mode |
| ctrl+n | add an entry |
| e · d · p · o | on a result: edit, delete, promote to markdown, open its file in `$EDITOR` |
| ctrl+z | undo the last delete |
| ctrl+s | export the results (text, json, csv, md, xml) |
| ctrl+r | re-index what changed (the status line counts the files changed since the last index) |
| F5 | watch knowledge files: edits saved elsewhere show up (again: stop) |
| F6 · f | only stale entries (⚠: cited code changed) · on one: refresh it |
| F7 | personal notes, not shared until promoted: agents', again: yours, again: all |
| ctrl+g | go to the category and source filters (shown if hidden); from them: hide them |
| ctrl+p | command palette: every action by name |
| F1 | this help · ctrl+q quit |
| mouse | click a mode, a filter, a result or a button |

**Modes.** *keyword* is BM25 over the words you type (the last word also matches as a prefix);
*vector* compares meanings with the embedding model; *hybrid* fuses both lists by z-scores
(each list's scores normalised against its own candidates, then summed). The model loads in
the background: until the status line says it is ready, searches use keywords.

**Scores.** The bar shows the score from 0 to 1; the preview explains it: the entry's rank and
similarity in the vector list, its rank and normalised BM25 in the keyword list, and the fused
score.

**Edits.** Entries from knowledge files are owned by their file: open the file (`o`) to change
them for good; the next re-index replaces edits made here.
"""


class HelpScreen(ModalScreen[None]):
    """Keys and concepts; any of Escape, q or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        """The help text."""
        with Vertical(id="dialog", classes="dialog help") as dialog:
            dialog.border_title = "Help"
            dialog.border_subtitle = "Esc to close"
            yield Markdown(HELP, id="help-text")

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
