"""The preview pane: an entry's markdown, its metadata and why it ranked where it did."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Markdown, Static

from app.tui.widgets.markdown_view import PreviewMarkdown
from engine import ScoreExplanation, SearchMode, SearchResult, printable, printable_line

EMPTY_HINT = "Select a result to preview it here."
PREVIEW_DELAY = 0.06
"""Seconds the preview waits for the selection to settle before rendering it."""


def short_time(stamp: str) -> str:
    """An ISO 8601 UTC stamp as ``YYYY-MM-DD HH:MM`` ("—" when empty)."""
    return f"{stamp[:10]} {stamp[11:16]}".strip() if stamp else "—"


def metadata(result: SearchResult) -> Content:
    """The metadata block of one entry."""
    entry = result.entry
    promoted = f"yes ({short_time(entry.promoted_at)})" if entry.promoted else "no"
    lines = []
    if entry.section_title:  # otherwise the title is the body's first line
        lines.append(Content.from_markup("[b]$title[/]", title=printable_line(entry.section_title)))
    lines += [
        Content.from_markup(
            "[dim]category[/] $category  [dim]source[/] $source  [dim]promoted[/] $promoted"
            "  [dim]references[/] $refs",
            category=entry.category.value,
            source=entry.source.value,
            promoted=promoted,
            refs=str(entry.reference_count),
        ),
    ]
    where = []
    if entry.location:
        where.append(
            Content.from_markup("[dim]file[/] $where", where=printable_line(entry.location))
        )
    if entry.keywords:
        where.append(
            Content.from_markup(
                "[dim]keywords[/] $kw", kw=printable_line(", ".join(entry.keywords))
            )
        )
    if where:
        lines.append(Content("  ").join(where))
    lines.append(
        Content.from_markup(
            "[dim]created[/] $created  [dim]updated[/] $updated",
            created=short_time(entry.created_at),
            updated=short_time(entry.updated_at),
        )
    )
    if result.stale:
        why = printable_line(result.stale_reason or "the code it cites changed")
        lines.append(
            Content.from_markup(
                "[$warning]stale: $why[/] [dim](f refreshes, d deletes)[/]", why=why
            )
        )
    return Content("\n").join(lines)


def explanation(result: SearchResult, mode: SearchMode | str) -> Content:
    """The score explanation: the relevance shown, then what it rests on: each
    retriever's rank and raw score (cosine, BM25), the share of the query's words the
    entry holds, the fused score that chose it."""
    why: ScoreExplanation = result.explanation

    def rank(value: int | None) -> str:
        return f"#{value}" if value is not None else "not found"

    def num(value: float | None, digits: int = 2) -> str:
        return f"{value:.{digits}f}" if value is not None else "—"

    parts = [
        Content.from_markup(
            "[b]relevance $score[/] [dim]$mode[/]", score=f"{result.score:.2f}", mode=mode
        )
    ]
    if mode != SearchMode.KEYWORD:
        parts.append(
            Content.from_markup(
                "[dim]vector[/] $rank [dim]similarity[/] $sim",
                rank=rank(why.vector_rank),
                sim=num(why.vector_similarity),
            )
        )
    if mode != SearchMode.VECTOR:
        parts.append(
            Content.from_markup(
                "[dim]keyword[/] $rank [dim]bm25[/] $bm25",
                rank=rank(why.keyword_rank),
                bm25=num(why.keyword_score, 1),
            )
        )
    if why.coverage is not None:
        parts.append(Content.from_markup("[dim]words[/] $c", c=f"{why.coverage:.0%}"))
    if why.fused_score is not None:
        parts.append(Content.from_markup("[dim]fused[/] $f", f=num(why.fused_score, 4)))
    if why.vector_weight is not None and why.vector_weight < 1:  # the lists disagreed
        parts.append(Content.from_markup("[dim]vector weight[/] $w", w=num(why.vector_weight)))
    if why.gate is not None:  # as "gate" in every JSON result
        parts.append(Content.from_markup("[dim]gate[/] $g", g=why.gate))
    if why.folded:  # the file's other sections, folded under this one
        parts.append(Content.from_markup("[dim]+$n more of this file[/]", n=str(why.folded)))
    return Content("  ").join(parts)


class EntryPreview(VerticalScroll):
    """Shows one result; the screen calls :meth:`follow` when the selection moves."""

    _shown: tuple[SearchResult | None, str, bool] | None = None
    _pending: tuple[SearchResult | None, str, bool] | None = None
    _timer: Timer | None = None

    @property
    def waiting(self) -> bool:
        """Whether a selection waits to be shown."""
        return self._timer is not None

    def follow(self, result: SearchResult | None, *, mode: str, browsing: bool) -> None:
        """Show ``result`` once the selection settles: rendering markdown takes longer
        than drawing the results, so it follows a moment later, once, instead of on every
        keystroke or cursor step."""
        self._pending = (result, mode, browsing)
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(PREVIEW_DELAY, self._show_pending)

    def _show_pending(self) -> None:
        self._timer = None
        if self._pending is not None:
            result, mode, browsing = self._pending
            self.show(result, mode=mode, browsing=browsing)

    @property
    def result(self) -> SearchResult | None:
        """The result on display."""
        return self._shown[0] if self._shown else None

    def on_mount(self) -> None:
        """Start in the empty state."""
        self.add_class("-empty")

    def compose(self) -> ComposeResult:
        """Metadata, the rendered markdown and the score explanation."""
        yield Static(EMPTY_HINT, id="preview-meta")
        yield Static("", id="preview-why")
        yield PreviewMarkdown("", id="preview-body")

    def show(self, result: SearchResult | None, *, mode: str, browsing: bool) -> None:
        """Display ``result`` (None: the empty hint). ``mode`` is the mode that ranked it."""
        key = (result, mode, browsing)
        if key == self._shown:
            return  # the same entry again (typing on): the markdown need not be re-rendered
        self._shown = key
        meta = self.query_one("#preview-meta", Static)
        body = self.query_one("#preview-body", Markdown)
        why = self.query_one("#preview-why", Static)
        self.set_class(result is None, "-empty")
        if result is None:
            meta.update(EMPTY_HINT)
            body.update("")
            why.update("")
            return
        meta.update(metadata(result))
        body.update(printable(result.entry.content))
        why.update("" if browsing else explanation(result, mode))
        why.display = not browsing
        self.scroll_home(animate=False)
