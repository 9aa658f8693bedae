"""Pilot tests: an entry full of terminal escape sequences and Rich markup is shown inert.

What the app draws is read from the screen's own rendering (every segment of every line),
so a raw ESC that any widget passed through would be found.
"""

from __future__ import annotations

from textual.app import App
from tui_helpers import make_app, search_for, settle, wait_until

from app.tui.screens.confirm import ConfirmScreen
from app.tui.screens.main import MainScreen
from engine.services.memory import Memory

HOSTILE = (
    "[/oops] Sprocket \x1b]0;pwned title\x07 note \x1b[2J\x1b[31mred "
    "\x1b]8;;https://evil.example\x1b\\click here\x1b]8;;\x1b\\ csi \x9b31m "
    "bidi \u202etxt.exe [bold]not bold[/bold]\n\nsecond line \x1b[1A"
)
UNSAFE = ("\x1b", "\x07", "\x9b", "\u202e")


def drawn(app: App[object]) -> str:
    """Every character the app would write for its current screen, line by line."""
    screen = app.screen
    lines = []
    for y in range(app.size.height):
        strip = screen._compositor.render_full_update().strips[y]
        lines.append("".join(segment.text for segment in strip))
    return "\n".join(lines)


async def test_escape_sequences_and_markup_are_shown_inert(memory: Memory) -> None:
    memory.add(HOSTILE, category="gotcha", keywords=["sprocket", "esc\x1b[2Jkw"])
    app = make_app(memory)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await search_for(pilot, "sprocket")
        await wait_until(pilot, lambda: "second line" in drawn(app), "the preview")
        screen = drawn(app)
        for char in UNSAFE:
            assert char not in screen, repr(char)
        assert "␛]0;pwned title␇" in screen  # shown, not obeyed
        assert "[bold]not bold[/bold]" in screen  # content is not markup
        assert "\\u202e" in screen
        assert "␛[2Jkw" in screen  # keywords in the preview's metadata

        await pilot.press("down", "d")  # the confirm dialog quotes the title
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        await pilot.pause()
        dialog = drawn(app)
        assert "␛]0;pwned title␇" in dialog and "\x1b" not in dialog
        await pilot.press("y")  # delete: the notification quotes "[/oops]" as text
        await wait_until(pilot, lambda: memory.count() == 0, "the delete")
        await settle(pilot)
        [note] = [n for n in app._notifications if "ctrl+z to undo" in n.message]
        assert "[/oops]" in note.message and not note.markup  # quoted as text
        assert "␛]0;pwned title␇" in note.message
        assert isinstance(app.screen, MainScreen)
        assert "\x1b" not in drawn(app)
