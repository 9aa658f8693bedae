"""What the main screen does, one concern a module, as mixins of :class:`MainScreen`.

:mod:`.search` (search and count workers, the model load), :mod:`.curation` (edit, delete,
undo, promote, open in the editor), :mod:`.maintenance` (re-index, export) and
:mod:`.freshness` (watch mode, the stale filter). Each is a mixin, not a screen: the state
lives on the screen (:mod:`app.tui.screens.main`), which composes them.
"""
