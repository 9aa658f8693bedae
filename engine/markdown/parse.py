"""Parsing of knowledge files: YAML front matter, indexing directives and code fences.

A knowledge file is plain markdown with two optional kinds of metadata:

* YAML front matter between a leading ``---`` line and a closing ``---`` (or ``...``) line,
  with ``category``, ``keywords`` and ``vector-index`` keys;
* HTML-comment directives anywhere outside code fences: ``<!-- vector-index: false -->``
  and ``<!-- keywords: a, b -->``.

Parsing never raises on malformed input: every problem becomes a warning that names the line,
so one bad file cannot stop indexing of the others.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core.models import MAX_KEYWORDS
from engine.markdown.blocks import FenceRole, block_map, fence_roles
from engine.markdown.boilerplate import blank_template_paragraphs, may_hold_template_text
from engine.markdown.scan import blank_code_spans, blank_mdx, comment_spans, directives

MAX_KEYWORD_LENGTH = 50
"""Longest keyword, in characters, that a file may declare; longer ones are dropped."""

_KNOWN = frozenset({"vector-index", "keywords"})
_FRONT_MATTER_END = frozenset({"---", "..."})
MDX_SUFFIX = ".mdx"
"""Files parsed as MDX: ESM and JSX-only lines are not text to index."""

__all__ = ["FenceRole", "ParsedMarkdown", "blank_html_comments", "fence_roles", "parse_markdown"]


@dataclass(frozen=True, slots=True)
class ParsedMarkdown:
    """A knowledge file split into its body and the metadata that steers indexing."""

    body: str
    """Text after the front matter, with recognised directive comments and the paragraphs of
    memory-tui's own templates (:mod:`.boilerplate`) blanked out in place."""
    body_line_offset: int
    """Original-file lines before ``body``: ``original_line = body_line + body_line_offset``."""
    front_matter: dict[str, object]
    """The YAML mapping, or empty when absent or malformed."""
    index: bool
    """False when the file opts out of vector indexing."""
    keywords: tuple[str, ...]
    """Keywords from front matter and directives, deduplicated, in order of appearance."""
    category: str | None
    """The front matter ``category`` as written; the caller validates it."""
    warnings: tuple[str, ...]
    """Human-readable problems, each naming the original line."""


def normalise_newlines(text: str) -> str:
    """Return ``text`` with CRLF and lone CR line endings turned into LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_markdown(text: str, name: str = "") -> ParsedMarkdown:
    """Parse a knowledge or documentation file; never raises, reports problems as warnings.

    ``name`` is the file's name or path: one ending in ``.mdx`` is read as MDX, its
    ``import``/``export`` blocks and JSX-only lines blanked in the body (line numbers kept).
    ``.md`` and ``.markdown`` files, and an empty name, are plain markdown.
    """
    lines = normalise_newlines(text).removeprefix("\ufeff").split("\n")
    warnings: list[str] = []
    front_matter: dict[str, object] = {}
    offset = 0
    if lines[0].rstrip() == "---":
        close = next(
            (i for i in range(1, len(lines)) if lines[i].rstrip() in _FRONT_MATTER_END), None
        )
        if close is None:
            warnings.append("line 1: '---' opens front matter that is never closed; read as text")
        else:
            front_matter = _load_front_matter(lines[1:close], warnings)
            offset = close + 1
    body_lines = lines[offset:] or [""]  # front matter to the last line: an empty body,
    body_offset = min(offset, len(lines) - 1)  # one line long like any text, on the last

    collector = _MetadataCollector(warnings)
    collector.read_front_matter(front_matter, lines[:offset])
    mdx = name.lower().endswith(MDX_SUFFIX)
    joined = "\n".join(body_lines)
    # Where each line is code matters only to these steps; most files need none of them.
    if mdx or "<!--" in joined or may_hold_template_text(joined) or _MDBOOK_TITLE in joined:
        code = block_map(body_lines).code
        body_lines = _blank_mdbook_titles(body_lines, code)
        body_lines = collector.read_directives(body_lines, code, body_offset)
        body_lines = blank_template_paragraphs(body_lines, code)
        if mdx:
            body_lines = blank_mdx(body_lines, code)
    category = front_matter.get("category")
    if category is not None and not isinstance(category, str):
        warnings.append(f"line {_key_line(lines[:offset], 'category')}: category must be text")
        category = None
    return ParsedMarkdown(
        body="\n".join(body_lines),
        body_line_offset=body_offset,
        front_matter=front_matter,
        index=collector.index,
        keywords=collector.keywords(),
        category=category,
        warnings=tuple(warnings),
    )


def _load_front_matter(block: list[str], warnings: list[str]) -> dict[str, object]:
    """Load the YAML between the fences; a broken block yields ``{}`` and a warning (the
    YAML parser is imported by the first file that has front matter)."""
    import yaml

    try:
        data = yaml.safe_load("\n".join(block))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        # The mark counts from the first line after the opening fence, 0-based.
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or "invalid YAML"
        warnings.append(f"line {line}: front matter ignored, it is not valid YAML ({problem})")
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        warnings.append("line 1: front matter ignored, it is not a mapping of keys to values")
        return {}
    return {str(key): value for key, value in data.items()}


def _key_line(front_matter_lines: Sequence[str], key: str) -> int:
    """Best-effort original line of a top-level front matter key, for warnings; 1 if not found."""
    pattern = re.compile(rf"^{re.escape(key)}\s*:")
    return next((i + 1 for i, line in enumerate(front_matter_lines) if pattern.match(line)), 1)


class _MetadataCollector:
    """Accumulates index flag and keywords from front matter and directives, with warnings."""

    def __init__(self, warnings: list[str]) -> None:
        self.index = True
        self._warnings = warnings
        self._keywords: list[tuple[str, int]] = []

    def read_front_matter(self, front_matter: dict[str, object], lines: Sequence[str]) -> None:
        """Take ``vector-index`` / ``vector_index`` and ``keywords`` from front matter.

        ``lines`` are the original front matter lines, fences included, for warning positions.
        """
        for key in ("vector-index", "vector_index"):
            if key in front_matter:
                self._set_index(front_matter[key], _key_line(lines, key))
        if "keywords" not in front_matter:
            return
        line = _key_line(lines, "keywords")
        value = front_matter["keywords"]
        if isinstance(value, str):
            self._add_keywords(value.split(","), line)
        elif isinstance(value, list):
            scalars = [item for item in value if isinstance(item, str | int | float)]
            if len(scalars) != len(value):
                self._warnings.append(f"line {line}: nested keyword values ignored")
            self._add_keywords((str(item) for item in scalars), line)
        elif value is not None:
            self._warnings.append(f"line {line}: keywords must be a list or comma-separated text")

    def read_directives(self, body_lines: list[str], code: list[bool], offset: int) -> list[str]:
        """Apply directives found outside code; return lines with them blanked out.

        ``code[i]`` says whether body line ``i`` is code (fenced or indented).
        """
        result = list(body_lines)
        for i, line in enumerate(body_lines):
            if code[i] or "<!--" not in line:
                continue
            line_no = i + 1 + offset
            # Inline code spans can quote a directive in prose; they must not trigger it.
            searchable = blank_code_spans(line)
            found = [d for d in directives(searchable) if _directive_name(d.name) in _KNOWN]
            for directive in found:
                self._apply(_directive_name(directive.name), directive.value, line_no)
            if found:
                result[i] = _blank_spans(line, [(d.start, d.end) for d in found])
        return result

    def keywords(self) -> tuple[str, ...]:
        """The merged keywords, deduplicated case-insensitively and capped at the maximum."""
        seen: set[str] = set()
        merged: list[tuple[str, int]] = []
        for keyword, line in self._keywords:
            if keyword.casefold() not in seen:
                seen.add(keyword.casefold())
                merged.append((keyword, line))
        if len(merged) > MAX_KEYWORDS:
            dropped = ", ".join(k for k, _ in merged[MAX_KEYWORDS:])
            first_line = merged[MAX_KEYWORDS][1]
            self._warnings.append(
                f"line {first_line}: more than {MAX_KEYWORDS} keywords, dropped: {dropped}"
            )
        return tuple(k for k, _ in merged[:MAX_KEYWORDS])

    def _apply(self, name: str, value: str | None, line: int) -> None:
        if name == "vector-index":
            self._set_index(value, line)
        elif not value or not value.strip(" ,"):
            self._warnings.append(f"line {line}: keywords directive has no keywords")
        else:
            self._add_keywords(value.split(","), line)

    def _set_index(self, value: object, line: int) -> None:
        flag = value.strip().lower() if isinstance(value, str) else value
        if flag in (False, "false"):
            self.index = False
        elif flag not in (True, "true"):
            self._warnings.append(f"line {line}: vector-index must be true or false, not {value!r}")

    def _add_keywords(self, raw: Iterable[str], line: int) -> None:
        for keyword in (item.strip() for item in raw):
            if len(keyword) > MAX_KEYWORD_LENGTH:
                self._warnings.append(
                    f"line {line}: keyword longer than {MAX_KEYWORD_LENGTH} characters dropped:"
                    f" {keyword[:20]}…"
                )
            elif keyword:
                self._keywords.append((keyword, line))


_MDBOOK_TITLE = "{{#title "
"""mdBook's helper that names the HTML page's ``<title>`` (mdBook's guide, "mdBook-specific
features": ``{{#title My Title}}``): markup for the browser's tab, never the page's text."""


def _blank_mdbook_titles(lines: list[str], code: list[bool]) -> list[str]:
    """``lines`` with each line outside code that is only a ``{{#title …}}`` blanked."""
    return ["" if not code[i] and _is_mdbook_title(line) else line for i, line in enumerate(lines)]


def _is_mdbook_title(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(_MDBOOK_TITLE) and stripped.endswith("}}")


def _directive_name(name: str) -> str:
    return name.lower().replace("_", "-")


def _blank_spans(original: str, spans: list[tuple[int, int]]) -> str:
    """Remove the directive comments at ``spans`` from a line, leaving the rest as written."""
    pieces: list[str] = []
    end = 0
    for start, stop in spans:
        pieces.append(original[end:start])
        end = stop
    pieces.append(original[end:])
    joined = "".join(pieces)
    # A line that held only directives becomes blank rather than disappearing, so line
    # numbers in the body still map onto the original file.
    return joined if joined.strip() else ""


def blank_html_comments(text: str) -> str:
    """Remove HTML comments outside code, keeping their line breaks.

    Comments are invisible when markdown is rendered (templates keep their guidance
    there), so they are not knowledge to index; line numbers still match the file. A
    ``<!--`` that is never closed is left as written.
    """
    spans = comment_spans(text)
    if not spans:
        return text
    lines = text.split("\n")
    code = block_map(lines).code
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    pieces: list[str] = []
    done = 0
    for start, end in spans:
        if code[bisect_right(starts, start) - 1]:
            continue
        pieces += [text[done:start], "\n" * text.count("\n", start, end)]
        done = end
    pieces.append(text[done:])
    return "".join(pieces)
