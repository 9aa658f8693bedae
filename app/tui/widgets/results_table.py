"""The results pane: rank, score bar, category, title and ``path:line`` of each result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from engine.models import SearchResult

_EIGHTHS = " ▏▎▍▌▋▊▉█"
SCROLLBAR = 2
"""Cells kept free for the vertical scrollbar."""


def score_bar(score: float, cells: int) -> str:
    """``score`` (0..1) as a bar of ``cells`` cells with eighth-cell precision."""
    eighths = round(max(0.0, min(1.0, score)) * cells * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(cells)


def one_line(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: max(0, width - 1)] + "…"


def tail(text: str, width: int) -> str:
    """``text`` cut from the left so that its end stays visible: ``…/file.md:12``."""
    if len(text) <= width:
        return text
    name = text.rsplit("/", 1)[-1]
    for candidate in ("…/" + name, name):
        if len(candidate) <= width:
            return candidate
    return "…" + text[len(text) - width + 1 :]


def fit_title(title: str, width: int) -> str:
    """A one-line title in ``width`` cells; a heading path keeps its last heading."""
    flat = " ".join(title.split())
    if len(flat) <= width or " > " not in flat:
        return one_line(flat, width)
    first, last = flat.split(" > ", 1)[0], flat.rsplit(" > ", 1)[-1]
    room = width - len(last) - 4  # "… > "
    if room >= 6:
        return f"{first[:room].rstrip()}… > {last}"
    return one_line("… > " + last, width)


def column_widths(width: int) -> dict[str, int]:
    """Widths of the five columns for a table ``width`` cells wide."""
    narrow = width < 70
    fixed = (
        {"rank": 2, "score": 10, "category": 10}
        if narrow
        else {
            "rank": 3,
            "score": 10,
            "category": 12,
        }
    )
    padding = 2 * 5  # DataTable pads each cell by one on both sides
    rest = max(24, width - sum(fixed.values()) - padding - SCROLLBAR)
    title = max(12, rest * 3 // 5)
    return {**fixed, "title": title, "source": max(10, rest - title)}


class ResultsTable(DataTable[Text]):
    """A table of search results (or of entries, newest first, when browsing)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "screen.edit_entry", "Edit"),
        Binding("d,delete", "screen.delete_entry", "Delete"),
        Binding("p", "screen.promote_entry", "Promote"),
        Binding("o", "screen.open_source", "Open file"),
        Binding("escape,slash", "screen.focus_search", "Search", show=False),
    ]

    class EntryHighlighted(Message):
        """The cursor moved to a result (None: the table is empty)."""

        def __init__(self, result: SearchResult | None) -> None:
            super().__init__()
            self.result = result
            """The highlighted result."""

    def __init__(self, *, id: str | None = None, strip_prefix: str = "") -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._results: tuple[SearchResult, ...] = ()
        self._browsing = False
        self._strip_prefix = strip_prefix

    @property
    def results(self) -> tuple[SearchResult, ...]:
        """The results shown, in order."""
        return self._results

    @property
    def selected(self) -> SearchResult | None:
        """The result under the cursor."""
        if not self._results or not 0 <= self.cursor_row < len(self._results):
            return None
        return self._results[self.cursor_row]

    def show_results(
        self, results: Sequence[SearchResult], *, browsing: bool, keep_cursor: bool = False
    ) -> None:
        """Replace the rows; the cursor goes to the top, or stays on the same entry when
        ``keep_cursor`` is set and that entry is still there."""
        previous = self.selected.entry.id if self.selected and keep_cursor else None
        self._results = tuple(results)
        self._browsing = browsing
        self._rebuild()
        ids = [r.entry.id for r in self._results]
        row = ids.index(previous) if previous in ids else 0
        if self._results:
            self.move_cursor(row=row, animate=False)
        self.post_message(self.EntryHighlighted(self.selected))

    def _rebuild(self) -> None:
        self.clear(columns=True)
        widths = column_widths(self.size.width or 80)
        self.add_column("#", width=widths["rank"], key="rank")
        self.add_column("Date" if self._browsing else "Score", width=widths["score"], key="score")
        self.add_column("Category", width=widths["category"], key="category")
        self.add_column("Title", width=widths["title"], key="title")
        self.add_column("Source", width=widths["source"], key="source")
        for rank, result in enumerate(self._results, start=1):
            self.add_row(*self._cells(rank, result, widths), key=result.entry.id)

    def _cells(self, rank: int, result: SearchResult, widths: dict[str, int]) -> list[Text]:
        entry = result.entry
        if self._browsing:
            score = Text(entry.created_at[:10], style="dim")
        else:
            bar = score_bar(result.score, widths["score"] - 5)
            score = Text.assemble((bar, "bold"), f" {result.score:.2f}")
        where = entry.location.removeprefix(self._strip_prefix) or f"({entry.source.value})"
        return [
            Text(str(rank), style="dim", justify="right"),
            score,
            Text(one_line(entry.category.value, widths["category"])),
            Text(fit_title(entry.title, widths["title"])),
            Text(tail(where, widths["source"]), style="dim"),
        ]

    def on_resize(self, event: events.Resize) -> None:
        """Re-fit the title and source columns to the new width."""
        if self._results:
            row = self.cursor_row
            self._rebuild()
            self.move_cursor(row=row, animate=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Turn the row highlight into :class:`EntryHighlighted`."""
        event.stop()
        self.post_message(self.EntryHighlighted(self.selected))
