"""Markdown for the preview, whose tables keep their columns legible.

Textual's table shrinks its columns to the width it is given, however many there are:
in a preview 46 cells wide, a seven-column table reads as columns of three to six
cells, each word broken over lines. Here a column shrinks only as far as its words
allow (and keeps a short cell on one line); a table that still does not fit scrolls
sideways, in a scroller that takes the focus (Tab, then ← →) and the mouse wheel.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.layout import Layout
from textual.layouts.grid import GridLayout
from textual.widget import Widget
from textual.widgets import Markdown

# Not exported by textual.widgets.markdown, but the classes Markdown.BLOCKS is made of.
from textual.widgets._markdown import MarkdownTable, MarkdownTableContent
from textual.widgets.markdown import MarkdownBlock

SHORT_CELL = 14
"""A cell up to this many cells wide stays on one line."""
LONGEST_WORD = 30
"""A longer word (a URL, a path) folds rather than widen its column further."""
WIDEST_COLUMN = 60
"""A column with longer cells wraps them rather than grow wider."""
CELL_PADDING = 2
"""Cells of padding around a cell's text (Textual's ``padding: 0 1``)."""
GUTTER = 1
"""Cells between two columns (Textual's ``grid-gutter``), where the rule is drawn."""
FRAME = 2
"""Cells of the rule around the table (Textual's ``keyline``), left and right."""


def column_floor(cells: Sequence[Content]) -> int:
    """The narrowest a column holding ``cells`` may get: its longest word, and its short
    cells whole (at most :data:`LONGEST_WORD`), plus padding."""
    floor = 1
    for cell in cells:
        words = cell.plain.split()
        whole = cell_len(" ".join(words))
        floor = max(floor, *(cell_len(w) for w in words), whole if whole <= SHORT_CELL else 0)
    return min(floor, LONGEST_WORD) + CELL_PADDING


def column_natural(cells: Sequence[Content]) -> int:
    """The width of a column holding ``cells`` with each on one line (at most
    :data:`WIDEST_COLUMN`), plus padding."""
    widest = max((cell_len(" ".join(cell.plain.split())) for cell in cells), default=1)
    return min(max(widest, 1), WIDEST_COLUMN) + CELL_PADDING


def column_widths(
    headers: Sequence[Content], rows: Sequence[Sequence[Content]], width: int
) -> list[int]:
    """Widths of the columns of a table in ``width`` cells: as wide as their text when
    that fits; else each at its :func:`column_floor` and the rest of the room shared in
    proportion to what each still lacks; never below the floors (the table scrolls)."""
    columns = [[h, *(row[i] for row in rows if i < len(row))] for i, h in enumerate(headers)]
    floors = [column_floor(c) for c in columns]
    natural = [max(f, column_natural(c)) for f, c in zip(floors, columns, strict=True)]
    room = width - GUTTER * max(0, len(columns) - 1)
    if sum(natural) <= room:
        return natural
    spare, lacking = room - sum(floors), sum(natural) - sum(floors)
    if spare <= 0:
        return floors
    widths = [f + (n - f) * spare // lacking for f, n in zip(floors, natural, strict=True)]
    for i in sorted(range(len(widths)), key=lambda i: natural[i] - widths[i], reverse=True):
        if sum(widths) >= room:
            break
        widths[i] += 1  # what the rounding down left over
    return widths


class LegibleTableContent(MarkdownTableContent):
    """The grid of one table, its columns as :func:`column_widths` sets them."""

    def pre_layout(self, layout: Layout) -> None:
        """Columns as :func:`column_widths` has them for the scroller's width (read at
        each layout: a Resize can come before the preview's scrollbar takes its cells),
        neither stretched nor squeezed."""
        super().pre_layout(layout)
        assert isinstance(layout, GridLayout)
        layout.expand = layout.shrink = False
        if isinstance(self.parent, Widget) and self.parent.size.width:
            self.fit(self.parent.size.width)  # a change lays the table out once more

    def fit(self, width: int) -> None:
        """Set the columns for a table ``width`` cells wide (its frame included)."""
        widths = column_widths(self.headers, self.rows, width - FRAME)
        self.styles.grid_columns = " ".join(map(str, widths))
        self.styles.width = sum(widths) + GUTTER * max(0, len(widths) - 1) + FRAME


class LegibleTable(MarkdownTable):
    """A table in a sideways scroller, which scrolls only when the columns at their
    floors are wider than the preview."""

    DEFAULT_CSS = """
    LegibleTable > .table-scroll {
        width: 1fr;
        height: auto;
        overflow-x: auto;
        overflow-y: hidden;
        scrollbar-size-horizontal: 1;
    }
    """

    def compose(self) -> ComposeResult:
        """The grid, inside its scroller."""
        headers, rows = self._get_headers_and_rows()
        self._headers, self._rows = headers, rows
        with ScrollableContainer(classes="table-scroll"):
            yield LegibleTableContent(headers, rows)


class PreviewMarkdown(Markdown):
    """Textual's markdown, with :class:`LegibleTable` for tables."""

    BLOCKS: dict[str, type[MarkdownBlock]] = {  # noqa: RUF012 - declared so by Markdown
        **Markdown.BLOCKS,
        "table_open": LegibleTable,
    }
