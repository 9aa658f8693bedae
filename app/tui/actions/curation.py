"""Curation on the main screen: add, edit, delete (with undo), promote, open in ``$EDITOR``.

A mixin of :class:`~app.tui.screens.main.MainScreen`: the actions ask the user (forms,
confirmation), thread workers call the engine and post messages, and the handlers
refresh the results and say what happened.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import work
from textual.app import SuspendNotSupported

from app.tui import messages as msg
from app.tui.widgets.results_table import ResultsTable
from engine import Entry, Source, printable

if TYPE_CHECKING:
    from textual.screen import Screen

    from app.tui.screens.entry_form import EntryDraft
    from engine import Memory

    _Base = Screen[None]
else:
    _Base = object

LINE_EDITORS = {"vi", "vim", "nvim", "nano", "emacs", "emacsclient", "micro", "kak", "joe", "mg"}
"""Editors that accept ``+LINE`` before the file name."""


def editor_command(path: str, line: int) -> list[str]:
    """The ``$VISUAL``/``$EDITOR`` command line that opens ``path`` (at ``line`` if it can)."""
    editor = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
    if line and os.path.basename(editor[0]) in LINE_EDITORS:
        return [*editor, f"+{line}", path]
    return [*editor, path]


class CurationActions(_Base):
    """Actions and workers that change entries (mixed into the main screen)."""

    memory: Memory
    _last_deleted: Entry | None = None
    check_index: Callable[[], object]
    """Provided by the maintenance actions (annotated only: a stub would shadow it)."""

    def refresh_results(self, *, select: str | None = None, refocus: bool = False) -> None:
        """Provided by the main screen."""
        raise NotImplementedError

    def update_state(self, *, debounce: bool = False, **changes: object) -> None:
        """Provided by the main screen."""
        raise NotImplementedError

    def refresh_counts(self) -> None:
        """Provided by the main screen."""
        raise NotImplementedError

    # --- notes to share ------------------------------------------------------------------

    def action_review_notes(self) -> None:
        """Show the personal notes, which nobody else sees until promoted: agents' notes
        first (source ``session``), then yours (``manual``), then everything again."""
        from app.tui.widgets.filter_list import FilterList
        from app.tui.widgets.status_line import StatusLine

        sources = self.query_one("#sources", FilterList)
        order = {None: Source.SESSION, Source.SESSION.value: Source.MANUAL}
        chosen = order.get(sources.active)
        sources.set_active(chosen.value if chosen else None)
        self.update_state(source=chosen)
        self.refresh_counts()
        if chosen is None:
            return
        who = "agents' notes" if chosen is Source.SESSION else "your notes"
        notes = self.query_one(StatusLine).notes
        self.notify(
            f"Showing {who}: personal until promoted (p on one). {notes} in all; "
            "`memory-tui promote --all-notes` promotes them after a review.",
            title="Notes to share",
        )

    def _selected(self, verb: str) -> Entry | None:
        result = self.query_one(ResultsTable).selected
        if result is None:
            self.notify(f"Select an entry to {verb} first.", severity="warning")
            return None
        return result.entry

    # --- add and edit --------------------------------------------------------------------

    def action_add_entry(self) -> None:
        """Open the form for a new entry."""
        from app.tui.screens.entry_form import EntryFormScreen

        self.app.push_screen(
            EntryFormScreen(validate=self.memory.prepare_content),
            lambda draft: self.save_entry(draft, None) if draft else None,
        )

    def action_edit_entry(self) -> None:
        """Open the form on the selected entry."""
        from app.tui.screens.entry_form import EntryFormScreen

        entry = self._selected("edit")
        if entry is not None:
            self.app.push_screen(
                EntryFormScreen(entry, validate=self.memory.prepare_content),
                lambda draft: self.save_entry(draft, entry.id) if draft else None,
            )

    @work(thread=True, group="write", exit_on_error=False, description="save the entry")
    def save_entry(self, draft: EntryDraft, entry_id: str | None) -> None:
        """Add or update (re-embedding the content); posts :class:`~app.tui.messages.EntrySaved`."""
        if entry_id is None:
            added = self.memory.add(
                draft.content, category=draft.category, keywords=draft.keywords, source="manual"
            )
            self.post_message(msg.EntrySaved(added.entry, created=added.created))
        else:
            entry = self.memory.update(
                entry_id, content=draft.content, category=draft.category, keywords=draft.keywords
            )
            self.post_message(msg.EntrySaved(entry, created=False, edited=True))

    def on_entry_saved(self, message: msg.EntrySaved) -> None:
        """Say what happened and show the entry."""
        title = message.entry.title[:60]
        if message.edited:
            self.notify(f"“{title}” was re-embedded.", title="Entry saved")
        elif message.created:
            self.notify(f"“{title}” ({message.entry.category.value})", title="Entry added")
        else:
            self.notify(f"Identical to “{title}”: nothing added.", title="Already stored")
        self.refresh_results(select=message.entry.id)

    # --- delete and undo -----------------------------------------------------------------

    def action_delete_entry(self) -> None:
        """Ask, then delete the selected entry."""
        from app.tui.screens.confirm import ConfirmScreen

        entry = self._selected("delete")
        if entry is None:
            return
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
        """Delete; posts :class:`~app.tui.messages.EntryDeleted` with the entry as it was."""
        current = self.memory.get(entry.id) or entry
        if self.memory.delete(entry.id):
            self.post_message(msg.EntryDeleted(current))

    def on_entry_deleted(self, message: msg.EntryDeleted) -> None:
        """Remember the entry for undo and refresh."""
        self._last_deleted = message.entry
        self.notify(f"“{message.entry.title[:60]}” · ctrl+z to undo", title="Entry deleted")
        self.refresh_results(refocus=True)

    def action_undo_delete(self) -> None:
        """Put back the last deleted entry."""
        if self._last_deleted is None:
            self.notify("Nothing to undo.", severity="warning")
            return
        entry, self._last_deleted = self._last_deleted, None
        self.restore_entry(entry)

    @work(thread=True, group="write", exit_on_error=False, description="undo the delete")
    def restore_entry(self, entry: Entry) -> None:
        """Restore; posts :class:`~app.tui.messages.EntryRestored`."""
        self.memory.restore([entry])
        self.post_message(msg.EntryRestored(entry))

    def on_entry_restored(self, message: msg.EntryRestored) -> None:
        """Show the entry again."""
        self.notify(f"“{message.entry.title[:60]}” is back.", title="Undone")
        self.refresh_results(select=message.entry.id, refocus=True)

    # --- promote and open ----------------------------------------------------------------

    def action_promote_entry(self) -> None:
        """Move the selected entry into a knowledge file."""
        entry = self._selected("promote")
        if entry is None:
            return
        if entry.source is Source.MARKDOWN:
            self.notify(f"It already lives in {entry.location}.", severity="warning")
            return
        self.promote_entry(entry)

    @work(thread=True, group="write", exit_on_error=False, description="promote the entry")
    def promote_entry(self, entry: Entry) -> None:
        """Promote; posts :class:`~app.tui.messages.EntryPromoted`."""
        from engine import promote

        result = promote(self.memory, entry.id)
        rel = result.path.relative_to(self.memory.paths.root).as_posix()
        new_id = result.entries[0].id if result.entries else None
        self.post_message(msg.EntryPromoted(entry, rel, new_id))

    def on_entry_promoted(self, message: msg.EntryPromoted) -> None:
        """Say where the entry went."""
        self.notify(message.path, title="Promoted to markdown")
        self.refresh_results(select=message.new_id)
        self.check_index()

    def action_open_source(self) -> None:
        """Open the selected entry's file in ``$EDITOR``; the app is suspended meanwhile."""
        entry = self._selected("open")
        if entry is None:
            return
        if not entry.file_path:
            self.notify("This entry has no file: edit it with e.", severity="warning")
            return
        path = self.memory.paths.root / entry.file_path
        if not path.is_file():
            self.notify(f"{entry.file_path} no longer exists.", severity="error")
            return
        self.memory.record_references([entry.id])  # opened: referenced
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
            self.post_message(msg.SourceEdited(entry.file_path))
