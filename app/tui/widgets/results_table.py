"""The results pane: rank, score bar, category, title and ``path:line`` of each result.

A line-API widget (one pre-formatted row per line, drawn from segments) rather than a
``DataTable``: it redraws in a couple of milliseconds, which matters when every keystroke
brings new results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine import MERGED_TITLES, SearchResult, printable_line

_EIGHTHS = " ▏▎▍▌▋▊▉█"
SCROLLBAR = 2
"""Cells kept free for the vertical scrollbar."""
GAP = 2
"""Blank cells between columns."""
COLUMNS = ("rank", "score", "category", "title", "source")


def score_bar(score: float, cells: int) -> str:
    """``score`` (0..1) as a bar of ``cells`` cells with eighth-cell precision."""
    eighths = round(max(0.0, min(1.0, score)) * cells * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(cells)


def one_line(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` cells with an ellipsis."""
    flat = " ".join(text.split())
    if cell_len(flat) <= width:
        return flat
    return set_cell_size(flat, max(0, width - 1)).rstrip() + "…"


def tail(text: str, width: int) -> str:
    """``text`` (a ``path:line``) in ``width`` cells, shortened from the left at folder
    boundaries so that the file name and its ``:line`` stay whole: the first folder and
    as many of the last ones as fit (``docs/…/user-guide/sync-waves.md:226``), else the
    name alone; a name too long for ``width`` loses its start (``…ync-waves.md:226``)."""
    if cell_len(text) <= width:
        return text
    if width < 2:
        return "…"[:width]
    *folders, name = text.split("/")
    if cell_len(name) > width:
        return "…" + name[len(name) - (width - 1) :]
    for first in (folders[:1], []):
        for start in range(1, len(folders) + 1):  # drop folders from the left
            kept = [*first, "…", *folders[start:], name]
            if cell_len(short := "/".join(kept)) <= width:
                return short
    return name


def fit_title(title: str, width: int) -> str:
    """A one-line title in ``width`` cells; a heading path keeps its last heading. An
    entry of several merged sections shows the first (where it starts) and how many more,
    not the last heading, which would name a section far below the entry's line."""
    flat = " ".join(title.split())
    first, *more = flat.split(MERGED_TITLES)
    if more and cell_len(flat) > width:
        suffix = f" +{len(more)}"
        return fit_title(first, max(1, width - len(suffix))) + suffix
    if cell_len(flat) <= width or " > " not in flat:
        return one_line(flat, width)
    first, last = flat.split(" > ", 1)[0], flat.rsplit(" > ", 1)[-1]
    if cell_len(f"{first} > … > {last}") <= width:
        return f"{first} > … > {last}"
    room = width - cell_len(last) - 4  # "… > "
    if room >= 6:
        return f"{set_cell_size(first, room).rstrip()}… > {last}"
    return one_line(last, width)


@dataclass(frozen=True, slots=True)
class Needs:
    """The widest cell each column would take in full, in cells (what the rows hold)."""

    category: int = len("architecture")
    title: int = 80
    source: int = 40
    """The longest ``path:line``."""
    name: int = 20
    """The longest file name with its ``:line`` (what a shortened path keeps): the column
    gives it room up to 45 % of the width, so file names stay whole beside the titles."""

    @classmethod
    def of(cls, categories: Sequence[str], titles: Sequence[str], sources: Sequence[str]) -> Needs:
        """What these rows need (the defaults for no rows)."""
        if not titles:
            return cls()
        return cls(
            category=max(map(cell_len, categories)),
            title=max(map(cell_len, titles)),
            source=max(map(cell_len, sources)),
            name=max(cell_len(s.rpartition("/")[2]) for s in sources),
        )


TINY = 60
"""Below this width the table drops the category column and the score bar."""


def column_widths(width: int, needs: Needs | None = None, *, dates: bool = False) -> dict[str, int]:
    """Widths of the five columns (0: not shown) for a table ``width`` cells wide whose
    rows need ``needs`` (``dates``: the score column holds dates). The source column gets
    what its whole paths need if the titles leave room, else what its file names need, up
    to 45%; the title takes the rest."""
    needs = needs or Needs()
    tiny = width < TINY
    fixed = {
        "rank": 3,
        "score": 10 if dates or not tiny else 5,  # a date, a bar and "0.47", or "0.47"
        "category": 0 if tiny else max(len("Category"), min(12, needs.category)),
    }
    gaps = GAP * (sum(1 for w in fixed.values() if w) + 1)  # after each shown, and title
    # The row starts with one blank cell; the scrollbar keeps its own cells at the end.
    rest = max(16, width - 1 - sum(fixed.values()) - gaps - SCROLLBAR)
    floor = min(needs.name, rest * 9 // 20)
    source = min(needs.source, max(floor, rest - needs.title))
    source = max(source, min(len("Source"), rest // 3))
    return {**fixed, "title": rest - source, "source": source}


class ResultsTable(ScrollView, can_focus=True):
    """A table of search results (or of entries, newest first, when browsing)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "results-table--header",
        "results-table--cursor",
        "results-table--dim",
        "results-table--bar",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("escape,slash", "screen.focus_search", "Search", show=False),
    ]

    cursor_row: reactive[int] = reactive(0, always_update=True)
    """Index of the highlighted result."""

    class EntryHighlighted(Message):
        """The cursor moved to a result (None: the table is empty)."""

        def __init__(self, result: SearchResult | None) -> None:
            super().__init__()
            self.result = result
            """The highlighted result."""

    def __init__(self, *, id: str | None = None, strip_prefix: str = "") -> None:
        super().__init__(id=id)
        self._results: tuple[SearchResult, ...] = ()
        self._browsing = False
        self._strip_prefix = strip_prefix
        self._rows: list[list[str]] = []
        self._widths = column_widths(80)

    # --- data ----------------------------------------------------------------------------

    @property
    def results(self) -> tuple[SearchResult, ...]:
        """The results shown, in order."""
        return self._results

    @property
    def selected(self) -> SearchResult | None:
        """The result under the cursor."""
        if not 0 <= self.cursor_row < len(self._results):
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
        self._format_rows()
        ids = [r.entry.id for r in self._results]
        self.move_cursor(row=ids.index(previous) if previous in ids else 0)
        if not previous:
            self.scroll_to(y=0, animate=False)

    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        """Put the cursor on ``row`` (clamped) and scroll it into view."""
        self.cursor_row = max(0, min(row, len(self._results) - 1))

    def _format_rows(self) -> None:
        texts = [self._texts(r) for r in self._results]
        needs = Needs.of([t[0] for t in texts], [t[1] for t in texts], [t[2] for t in texts])
        self._widths = column_widths(self.size.width or 80, needs, dates=self._browsing)
        rows = zip(self._results, texts, strict=True)
        self._rows = [self._cells(rank, r, t) for rank, (r, t) in enumerate(rows, start=1)]
        self.virtual_size = Size(self.size.width, len(self._rows) + 1)
        self.refresh()

    def _texts(self, result: SearchResult) -> tuple[str, str, str]:
        """The category, title and source of a row, in full."""
        entry = result.entry
        where = entry.location.removeprefix(self._strip_prefix) or f"({entry.source.value})"
        title = " ".join((("⚠ " if result.stale else "") + printable_line(entry.title)).split())
        return entry.category.value, title, printable_line(where)

    def _cells(self, rank: int, result: SearchResult, texts: tuple[str, str, str]) -> list[str]:
        widths, (category, title, where) = self._widths, texts
        if self._browsing:
            score = result.entry.created_at[:10]
        elif widths["score"] > 5:
            score = f"{score_bar(result.score, widths['score'] - 5)} {result.score:.2f}"
        else:
            score = f"{result.score:.2f}"
        return [
            str(rank).rjust(widths["rank"]),
            score,
            one_line(category, widths["category"]),
            fit_title(title, widths["title"]),
            tail(where, widths["source"]),
        ]

    # --- drawing -------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """The header on the first line, then the rows under the scroll offset."""
        width = self.size.width
        base = self.rich_style
        if y == 0:
            header = self.get_component_rich_style("results-table--header")
            titles = ["#", "Date" if self._browsing else "Score", "Category", "Title", "Source"]
            return self._strip(titles, base + header, base + header, width)
        index = self.scroll_offset.y + y - 1
        if index >= len(self._rows):
            return Strip.blank(width, base)
        style = base
        if index == self.cursor_row:
            style = base + self.get_component_rich_style("results-table--cursor")
        dim = style + self._color("results-table--dim")
        return self._strip(self._rows[index], style, dim, width, bar=not self._browsing)

    def _color(self, component: str) -> Style:
        # Only the (alpha-blended) colour: the row keeps its own background and weight.
        return Style(color=self.get_component_rich_style(component).color)

    def _strip(
        self, cells: list[str], style: Style, dim: Style, width: int, *, bar: bool = False
    ) -> Strip:
        segments = [Segment(" ", style)]
        for name, text in zip(COLUMNS, cells, strict=True):
            if not self._widths[name]:
                continue  # a column left out at this width
            padded = set_cell_size(text, self._widths[name]) + " " * GAP
            if name == "score" and bar and self._widths[name] > 5:
                accent = style + self._color("results-table--bar")
                segments += [Segment(padded[:5], accent), Segment(padded[5:], style)]
            else:
                segments.append(Segment(padded, dim if name in ("rank", "source") else style))
        return Strip(segments).adjust_cell_length(width, style)

    # --- events --------------------------------------------------------------------------

    def watch_cursor_row(self, row: int) -> None:
        """Keep the cursor visible and tell the screen what is highlighted."""
        visible = max(1, self.size.height - 1)
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False)
        elif row >= top + visible:
            self.scroll_to(y=row - visible + 1, animate=False)
        self.refresh()
        self.post_message(self.EntryHighlighted(self.selected))

    def on_resize(self, event: events.Resize) -> None:
        """Re-fit the title and source columns to the new width."""
        self._format_rows()

    def on_click(self, event: events.Click) -> None:
        """Select the row under the pointer."""
        index = self.scroll_offset.y + event.y - 1
        if event.y >= 1 and 0 <= index < len(self._results):
            self.cursor_row = index

    def on_focus(self) -> None:
        """Redraw: the cursor is brighter while focused."""
        self.refresh()

    def on_blur(self) -> None:
        """Redraw: the cursor is dimmer without focus."""
        self.refresh()

    def action_cursor(self, step: int) -> None:
        """Move the cursor by ``step`` rows."""
        self.move_cursor(row=self.cursor_row + step)

    def action_page(self, direction: int) -> None:
        """Move the cursor by one page."""
        self.move_cursor(row=self.cursor_row + direction * max(1, self.size.height - 2))

    def action_jump(self, row: int) -> None:
        """Move the cursor to the first (0) or last (-1) row."""
        self.move_cursor(row=len(self._results) - 1 if row < 0 else row)
