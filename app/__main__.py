"""``python -m app``: the ``memory-tui`` command (the git hooks start background work so)."""

from app.cli import run

run()
