"""Curation: add, edit, delete (with undo), promote, refresh, open in ``$EDITOR``.

:class:`Curation` is a widget with nothing to draw (the structural minimum hides it): it
owns what curating needs between two keys (the entry last deleted, for undo), asks the
user (forms, confirmation), runs the writes in thread workers and posts the messages
nested in it. The screen hands it the selected entry and, once a message bubbles up,
refreshes the results.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import SuspendNotSupported
from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker

from app.tui.failures import failure, report_failure
from engine import Entry, Source, printable

if TYPE_CHECKING:
    from app.tui.screens.entry_form import EntryDraft
    from engine import Memory

LINE_EDITORS = {"vi", "vim", "nvim", "nano", "emacs", "emacsclient", "micro", "kak", "joe", "mg"}
"""Editors that accept ``+LINE`` before the file name."""


def editor_command(path: str, line: int) -> list[str]:
    """The ``$VISUAL``/``$EDITOR`` command line that opens ``path`` (at ``line`` if it can)."""
    editor = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
    if line and os.path.basename(editor[0]) in LINE_EDITORS:
        return [*editor, f"+{line}", path]
    return [*editor, path]


class Curation(Widget):
    """Changes to entries, one worker each; see the module docstring."""

    DEFAULT_CSS: ClassVar[str] = "Curation { display: none; }"

    class EntrySaved(Message):
        """An entry was added or edited."""

        def __init__(self, entry: Entry, *, created: bool, edited: bool = False) -> None:
            super().__init__()
            self.entry = entry
            """The entry as stored."""
            self.created = created
            """False when an identical entry already existed (nothing was added)."""
            self.edited = edited
            """True for an edit of an existing entry."""

    class EntryDeleted(Message):
        """An entry was deleted (it can be restored with undo)."""

        def __init__(self, entry: Entry) -> None:
            super().__init__()
            self.entry = entry
            """The entry as it was before the delete."""

    class EntryRestored(Message):
        """The last deleted entry was put back."""

        def __init__(self, entry: Entry) -> None:
            super().__init__()
            self.entry = entry
            """The restored entry (same id as before)."""

    class EntryPromoted(Message):
        """An entry was promoted into a knowledge file."""

        def __init__(self, entry: Entry, path: str, new_id: str | None) -> None:
            super().__init__()
            self.entry = entry
            """The original entry (now deleted)."""
            self.path = path
            """The knowledge file written, relative to the project root."""
            self.new_id = new_id
            """The first entry indexed from that file."""

    class EntryRefreshed(Message):
        """A stale entry was refreshed (a note re-cited, or discovery run again)."""

        def __init__(self, entry_id: str, summary: str) -> None:
            super().__init__()
            self.entry_id = entry_id
            """The entry that was stale."""
            self.summary = summary
            """What was done, for a toast."""

    class SourceEdited(Message):
        """The user came back from editing a knowledge file in ``$EDITOR``."""

        def __init__(self, rel_path: str) -> None:
            super().__init__()
            self.rel_path = rel_path
            """The file, relative to the project root (to re-index after the edit)."""

    def __init__(self, memory: Memory) -> None:
        super().__init__()
        self.memory = memory
        """The engine's front door (every write goes through it)."""
        self.last_deleted: Entry | None = None
        """The entry ctrl+z puts back."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Say why a write failed."""
        text = failure(event)
        if text is not None:
            report_failure(self, event.worker, text)

    # --- add and edit --------------------------------------------------------------------

    def add(self) -> None:
        """Open the form for a new entry."""
        from app.tui.screens.entry_form import EntryFormScreen

        self.app.push_screen(
            EntryFormScreen(validate=self.memory.prepare_content),
            lambda draft: self.save_entry(draft, None) if draft else None,
        )

    def edit(self, entry: Entry) -> None:
        """Open the form on ``entry``."""
        from app.tui.screens.entry_form import EntryFormScreen

        self.app.push_screen(
            EntryFormScreen(entry, validate=self.memory.prepare_content),
            lambda draft: self.save_entry(draft, entry.id) if draft else None,
        )

    @work(thread=True, group="write", exit_on_error=False, description="save the entry")
    def save_entry(self, draft: EntryDraft, entry_id: str | None) -> None:
        """Add or update (re-embedding the content); posts :class:`EntrySaved`."""
        if entry_id is None:
            added = self.memory.add(
                draft.content, category=draft.category, keywords=draft.keywords, source="manual"
            )
            self.post_message(self.EntrySaved(added.entry, created=added.created))
        else:
            entry = self.memory.update(
                entry_id, content=draft.content, category=draft.category, keywords=draft.keywords
            )
            self.post_message(self.EntrySaved(entry, created=False, edited=True))

    def on_curation_entry_saved(self, message: EntrySaved) -> None:
        """Say what happened (the screen then shows the entry)."""
        title = message.entry.title[:60]
        if message.edited:
            self.notify(f"“{title}” was re-embedded.", title="Entry saved")
        elif message.created:
            self.notify(f"“{title}” ({message.entry.category.value})", title="Entry added")
        else:
            self.notify(f"Identical to “{title}”: nothing added.", title="Already stored")

    # --- delete and undo -----------------------------------------------------------------

    def delete(self, entry: Entry) -> None:
        """Ask, then delete ``entry``."""
        from app.tui.screens.confirm import ConfirmScreen

        if self.memory.delete_refusal(entry) is not None:  # the file is the source: edit it
            self.notify(
                printable(f"It comes from {entry.location}: edit or delete the text there."),
                title="Not deleted",
                severity="warning",
            )
            return
        question = f"Delete “{entry.title[:70]}”?\nYou can undo this with ctrl+z."
        self.app.push_screen(
            ConfirmScreen("Delete entry", printable(question), confirm_label="Delete"),
            lambda yes: self.delete_entry(entry) if yes else self._kept(entry),
        )

    def _kept(self, entry: Entry) -> None:
        self.notify(f"“{entry.title[:60]}” is still there.", title="Not deleted")

    @work(thread=True, group="write", exit_on_error=False, description="delete the entry")
    def delete_entry(self, entry: Entry) -> None:
        """Delete; posts :class:`EntryDeleted` with the entry as it was."""
        current = self.memory.get(entry.id) or entry
        if self.memory.delete(entry.id):
            self.post_message(self.EntryDeleted(current))

    def on_curation_entry_deleted(self, message: EntryDeleted) -> None:
        """Remember the entry for undo."""
        self.last_deleted = message.entry
        self.notify(f"“{message.entry.title[:60]}” · ctrl+z to undo", title="Entry deleted")

    def undo(self) -> None:
        """Put back the last deleted entry."""
        if self.last_deleted is None:
            self.notify("Nothing to undo.", severity="warning")
            return
        entry, self.last_deleted = self.last_deleted, None
        self.restore_entry(entry)

    @work(thread=True, group="write", exit_on_error=False, description="undo the delete")
    def restore_entry(self, entry: Entry) -> None:
        """Restore; posts :class:`EntryRestored`."""
        self.memory.restore([entry])
        self.post_message(self.EntryRestored(entry))

    def on_curation_entry_restored(self, message: EntryRestored) -> None:
        """Say that the entry is back."""
        self.notify(f"“{message.entry.title[:60]}” is back.", title="Undone")

    # --- promote, refresh, open ----------------------------------------------------------

    def promote(self, entry: Entry) -> None:
        """Move ``entry`` into a knowledge file."""
        if entry.source is Source.MARKDOWN:
            self.notify(f"It already lives in {entry.location}.", severity="warning")
            return
        self.promote_entry(entry)

    @work(thread=True, group="write", exit_on_error=False, description="promote the entry")
    def promote_entry(self, entry: Entry) -> None:
        """Promote; posts :class:`EntryPromoted`."""
        from engine import promote

        result = promote(self.memory, entry.id)
        rel = result.path.relative_to(self.memory.paths.root).as_posix()
        new_id = result.entries[0].id if result.entries else None
        self.post_message(self.EntryPromoted(entry, rel, new_id))

    def on_curation_entry_promoted(self, message: EntryPromoted) -> None:
        """Say where the entry went."""
        self.notify(message.path, title="Promoted to markdown")

    def refresh_stale(self, entry: Entry, *, stale: bool) -> None:
        """Refresh ``entry`` if it is ``stale``."""
        if not stale:
            self.notify("This entry is not stale.", title="Refresh")
            return
        self.refresh_entry(entry)

    @work(thread=True, group="refresh", exit_on_error=False, description="refresh the entry")
    def refresh_entry(self, entry: Entry) -> None:
        """Refresh by the engine's rule (:meth:`engine.Memory.refresh`: a note reviewed,
        discovery run again for a discovery entry); posts :class:`EntryRefreshed`."""
        done = self.memory.refresh(entry)
        self.post_message(self.EntryRefreshed(entry.id, done.summary()))

    def on_curation_entry_refreshed(self, message: EntryRefreshed) -> None:
        """Confirm."""
        self.notify(message.summary, title="Refreshed")

    def open_source(self, entry: Entry) -> None:
        """Open ``entry``'s file in ``$EDITOR``; the app is suspended meanwhile. A
        knowledge file edited there posts :class:`SourceEdited`."""
        if not entry.file_path:
            self.notify("This entry has no file: edit it with e.", severity="warning")
            return
        path = self.memory.paths.root / entry.file_path
        if not path.is_file():
            self.notify(f"{entry.file_path} no longer exists.", severity="error")
            return
        self.memory.referenced([entry.id])  # opened: referenced
        command = editor_command(str(path), entry.line_start)
        try:
            with self.app.suspend():
                subprocess.call(command)
        except SuspendNotSupported:
            self.notify("This terminal cannot suspend the app.", severity="error")
            return
        except OSError as exc:
            self.notify(f"{command[0]}: {exc.strerror}", title="Cannot run the editor")
            return
        if entry.source is Source.MARKDOWN:
            self.post_message(self.SourceEdited(entry.file_path))
