"""A filter list: "All" plus one option per value, each with its entry count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

ALL = "all"
"""Option id of the "no filter" choice."""


class FilterList(OptionList):
    """Pick one value (or "All"); the active value is marked and counts sit on the right."""

    class Changed(Message):
        """The user picked a value (None for "All")."""

        def __init__(self, filter_list: FilterList, value: str | None) -> None:
            super().__init__()
            self.filter_list = filter_list
            """The list that changed."""
            self.value = value
            """The chosen value, None for no filter."""

        @property
        def control(self) -> FilterList:
            """The list that changed (lets ``@on(FilterList.Changed, "#id")`` match)."""
            return self.filter_list

    def __init__(self, values: Sequence[str], *, title: str, id: str | None = None) -> None:
        self._values = tuple(values)
        self._counts: dict[str, int] = {}
        self._total: int | None = None
        self.active: str | None = None
        """The value currently applied (None: all)."""
        super().__init__(*self._options(), id=id)
        self.border_title = title

    def _prompt(self, key: str) -> Content:
        label = "All" if key == ALL else key
        count = self._total if key == ALL else self._counts.get(key, 0)
        shown = "" if count is None else f"{count:,}"
        marker = "●" if (key == ALL and self.active is None) or key == self.active else " "
        style = "" if key == ALL or count else "dim"
        return Content.assemble((f"{marker} ", "bold $accent"), (f"{label:<12}{shown:>6}", style))

    def _options(self) -> list[Option]:
        return [Option(self._prompt(key), id=key) for key in (ALL, *self._values)]

    def _refresh_prompts(self) -> None:
        for key in (ALL, *self._values):
            self.replace_option_prompt(key, self._prompt(key))

    def show_counts(self, counts: Mapping[str, int], total: int) -> None:
        """Display new counts (the highlight and the active value are kept)."""
        self._counts = dict(counts)
        self._total = total
        self._refresh_prompts()

    def set_active(self, value: str | None) -> None:
        """Mark ``value`` (None: "All") as the applied filter."""
        self.active = value
        self._refresh_prompts()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Turn the selection into :class:`Changed`."""
        event.stop()
        option_id = event.option.id
        self.post_message(self.Changed(self, None if option_id in (None, ALL) else option_id))
