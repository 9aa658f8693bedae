"""Search results rendered in the five output formats: text, json, csv, md and xml.

Shared by the CLI (``--format``), the TUI's export screen and the MCP server; it only builds
strings, the caller decides where they go. Every output ends with exactly one newline.

JSON writes each result in the one shape of every face (every entry field, stale flags, the
score explanation: :func:`engine.output.serialize.result_json`). The tabular machine formats
(csv, xml) carry every field of :data:`FIELDS`. All three are lossless, full content included:
newlines, quotes and surrounding whitespace survive a parse with :mod:`json`,
:class:`csv.DictReader` or :mod:`xml.etree.ElementTree`. CSV is also opened by spreadsheets,
which run a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return as a
formula ("CSV injection"): such a text cell is written with a single quote in front, as
OWASP advises (``'=HYPERLINK(...)``, shown as text, still readable); a cell of quotes
before one of those characters gets one more, so :func:`csv_cell_text` gives every cell
back exactly. Multi-line cells are quoted as RFC 4180 says. The reading formats pass content
through the terminal guard (:mod:`engine.guards.terminal`), so that terminal escape sequences
stay inert: text shortens it to one line per result; md keeps it whole, a section per
result with the content in a fenced code block longer than any backtick run inside it, so
that no content (a table, a heading, a code fence) can spill into the next result. JSON
escapes what a terminal would obey (the same characters), so it can be printed safely.

XML 1.0 cannot hold most control characters (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F),
U+FFFE, U+FFFF or lone surrogates, not even as character references. An element whose text
contains one is written as ``<content encoding="base64">…</content>``: base64 of the text's
UTF-8 bytes (lone surrogates encoded with the ``surrogatepass`` error handler). The ``query``
attribute falls back the same way, flagged by ``queryEncoding="base64"``. Carriage returns are
written as ``&#13;`` so that parsers do not normalise them away, and DEL, C1 controls and
bidirectional overrides as character references, so that the file can be shown on a terminal.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from collections.abc import Sequence

from engine.core.fences import fence_for
from engine.core.models import ENTRY_FIELDS, Entry, ExportFormat, SearchResult
from engine.guards.terminal import json_text, printable, printable_line
from engine.output.serialize import ENTRY_KEYS, KNOWLEDGE_PREFIX, entry_record, results_json

_EXPORTED = tuple(k for k in ENTRY_KEYS if k in {f.key for f in ENTRY_FIELDS if f.exported})
FIELDS: tuple[str, ...] = ("rank", _EXPORTED[0], "score", *_EXPORTED[1:-1], "stale", _EXPORTED[-1])
"""The fields of one exported record, in column order: the rank, the id, the score, the
entry fields declared ``exported`` (:data:`engine.core.models.ENTRY_FIELDS`) in the JSON
shape's order and with its names, whether it is stale, and the content last."""
_ENTRY_FIELDS = tuple(f for f in FIELDS if f not in ("rank", "score", "stale"))

TEXT_SNIPPET_CHARS = 240
"""Most content characters shown per result in the text format."""

MD_HEADING_CHARS = 100
"""Most characters of an entry's title in its Markdown heading (the content below is whole)."""

ELLIPSIS = "…"

_FORMULA = re.compile("'*[=+\\-@\t\r]")
"""A cell a spreadsheet would evaluate (after any quotes: those already neutralised)."""
_NEUTRALISED = re.compile("'+[=+\\-@\t\r]")
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_XML_REFS = {
    chr(code): f"&#{code};"
    for code in (0x0D, *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A))
}
"""Written as character references: a literal CR, which parsers turn into LF, and what a
terminal would obey (DEL, C1 controls, bidirectional overrides); all parse back exactly."""


FORMAT_ALIASES: dict[str, ExportFormat] = {"markdown": ExportFormat.MD}
"""Other names a format is known by, accepted wherever a format is taken."""


def parse_format(name: str) -> ExportFormat:
    """The format called ``name`` or one of :data:`FORMAT_ALIASES` (case-insensitive,
    surrounding blanks ignored).

    Raises:
        ValueError: ``name`` is not one of the five formats.
    """
    key = name.strip().lower()
    try:
        return FORMAT_ALIASES.get(key) or ExportFormat(key)
    except ValueError:
        choices = ", ".join(fmt.value for fmt in ExportFormat)
        aliases = "; ".join(f"{alias} is {fmt.value}" for alias, fmt in FORMAT_ALIASES.items())
        raise ValueError(f"unknown format '{name}': choose one of {choices} ({aliases})") from None


def result_rows(results: Sequence[SearchResult]) -> list[dict[str, object]]:
    """One flat record per result, keyed by :data:`FIELDS`.

    ``rank`` is 1-based, ``score`` rounded to 4 decimals, ``line`` the first source line or
    ``None``, ``keywords`` a list and ``content`` the full, untruncated text.
    """
    rows: list[dict[str, object]] = []
    for rank, result in enumerate(results, start=1):
        row: dict[str, object] = {
            "rank": rank,
            "score": round(float(result.score), 4),
            "stale": result.stale,
        }
        row.update(entry_record(result.entry, _ENTRY_FIELDS))
        rows.append({key: row[key] for key in FIELDS})
    return rows


def render(
    results: Sequence[SearchResult],
    fmt: ExportFormat | str,
    query: str = "",
    *,
    knowledge_prefix: str = KNOWLEDGE_PREFIX,
) -> str:
    """``results`` (best first) for ``query`` in format ``fmt``, ending with one newline.

    ``knowledge_prefix`` (the knowledge folder relative to the project root, with a
    trailing slash) gives json results their ``memory://`` uri.

    Raises:
        ValueError: ``fmt`` names no format.
    """
    chosen = parse_format(fmt)
    if chosen is ExportFormat.JSON:
        return _render_json(results, knowledge_prefix)
    return _RENDERERS[chosen](results, query)


# -- text


QUERY_SHOWN_CHARS = 120
"""The most of a query a results header repeats (a pasted page would bury the results)."""


def _shown_query(query: str) -> str:
    """The query on one line, cut to :data:`QUERY_SHOWN_CHARS` with an ellipsis."""
    line = _one_line(" ".join(query.split()))
    return line if len(line) <= QUERY_SHOWN_CHARS else line[: QUERY_SHOWN_CHARS - 1] + "…"


def _one_line(text: str) -> str:
    """``text`` with control characters made visible and all whitespace runs as one space."""
    return printable_line(text)


def _shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a word boundary when one is near."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit * 3 // 4:
        cut = cut[:space]
    return cut.rstrip() + ELLIPSIS


def _where(result: SearchResult) -> str:
    """``path:line``, else ``(source)`` for entries that are not backed by a file."""
    return result.entry.location or f"({result.entry.source})"


def _evidence(result: SearchResult) -> str:
    """What the score rests on, for a person: the raw cosine similarity and BM25 (each
    only when that retriever ran), e.g. ``  (cosine 0.612, bm25 11.4)``."""
    why = result.explanation
    parts = []
    if why.vector_similarity is not None:
        parts.append(f"cosine {why.vector_similarity:.3f}")
    if why.keyword_score is not None:
        parts.append(f"bm25 {why.keyword_score:.1f}")
    return f"  ({', '.join(parts)})" if parts else ""


def _body(entry: Entry) -> str:
    """The content without what the section title line already says: a chunk starts with
    its heading path (``Auth > Tokens``) and its heading (``## Tokens``)."""
    path = " ".join(entry.section_title.split()).lower()
    titles = {part.strip() for part in path.split(" > ")} - {""}
    lines = entry.content.splitlines()
    while lines and path:
        head = " ".join(lines[0].split()).lower()
        heading = head.startswith("#") and head.lstrip("#").strip() in titles
        if head and head != path and not heading:
            break
        lines.pop(0)
    return "\n".join(lines) or entry.content


def _render_text(results: Sequence[SearchResult], query: str) -> str:
    shown_query = _shown_query(query)
    if not results:
        return f'No results for "{shown_query}".\n' if shown_query else "No results.\n"
    blocks = [f'Results for "{shown_query}"'] if shown_query else []
    for rank, result in enumerate(results, start=1):
        head = f"{rank}. [{result.score:.4f}] {result.entry.category}  {_one_line(_where(result))}"
        lines = [head + (" [stale]" if result.stale else "") + _evidence(result)]
        if result.entry.section_title:
            lines.append("   " + _one_line(result.entry.section_title))
        snippet = _shorten(_one_line(_body(result.entry)), TEXT_SNIPPET_CHARS)
        if snippet:
            lines.append("   " + snippet)
        if result.explanation.folded:
            more = result.explanation.folded
            lines.append(f"   + {more} more section{'s' if more > 1 else ''} of this file")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


# -- json


def _render_json(results: Sequence[SearchResult], knowledge_prefix: str) -> str:
    # A bare array of records (the query is not part of it), each a search result in the one
    # JSON shape (search_result.schema.json).
    rows = results_json(results, knowledge_prefix=knowledge_prefix)
    return json_text(json.dumps(rows, indent=2, ensure_ascii=False)) + "\n"


# -- csv


def _flat_value(value: object) -> str | int | float:
    """A record value as flat text (CSV, XML): lists joined by ``", "``, booleans lower-case."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if isinstance(value, int | float):
        return value
    return str(value)


def _csv_cell(value: str | int | float) -> str | int | float:
    """A text cell a spreadsheet would run as a formula, with a quote in front (OWASP)."""
    if isinstance(value, str) and _FORMULA.match(value):
        return "'" + value
    return value


def csv_cell_text(cell: str) -> str:
    """The text of a cell read back from :func:`render`'s CSV: the quote that neutralised
    a formula removed (``'=1+2`` → ``=1+2``); every other cell is returned as it is."""
    return cell[1:] if _NEUTRALISED.match(cell) else cell


def _render_csv(results: Sequence[SearchResult], query: str) -> str:
    buffer = io.StringIO(newline="")
    minimal = csv.writer(buffer, lineterminator="\n")
    # csv (3.11) leaves a lone "\r" unquoted when the terminator is "\n", and readers then split
    # the record there; such rows get every text field quoted instead.
    quoted = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    minimal.writerow(FIELDS)
    for row in result_rows(results):
        cells = [_csv_cell(_flat_value(row[name])) for name in FIELDS]
        has_cr = any(isinstance(cell, str) and "\r" in cell for cell in cells)
        (quoted if has_cr else minimal).writerow(cells)
    return buffer.getvalue()


# -- md


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<&#~])")
"""What could start markup inside a heading or a list item (emphasis, code, a link, HTML,
an entity, a closing ``#``, strikethrough); each is backslash-escaped."""


def _md_inline(text: str) -> str:
    """``text`` on one line, inert on a terminal, with every character that could start
    markdown markup escaped: a heading or list item shows it as written."""
    return _MD_SPECIAL.sub(r"\\\1", printable_line(text))


def _md_block(text: str) -> str:
    """``text`` as a fenced code block that holds it whole: its fence is longer than any
    run of backticks inside, so no line of the text can close it (CommonMark), and
    headings, tables or fences in the text stay text. Escape sequences are made inert."""
    body = printable(text)
    if body and not body.endswith("\n"):
        body += "\n"
    fence = fence_for(body)
    return f"{fence}\n{body}{fence}"


def _render_md(results: Sequence[SearchResult], query: str) -> str:
    # A section per result, its content whole in a code block: a table cell cannot hold
    # a code fence or a line break, and a cut would lose what the reader came for.
    shown_query = _shown_query(query)
    blocks = [f'## Results for "{_md_inline(shown_query)}"'] if shown_query else []
    if not results:
        return "\n\n".join([*blocks, "_No results._"]) + "\n"
    for rank, result in enumerate(results, start=1):
        entry = result.entry
        facts = [f"- score: {result.score:.4f}"] if shown_query else []  # none for a listing
        facts += [
            f"- category: {entry.category}",
            f"- location: {_md_inline(_where(result))}",
            f"- id: {_md_inline(entry.id)}",
        ]
        if result.stale:
            why = f": {_md_inline(result.stale_reason)}" if result.stale_reason else ""
            facts.append(f"- stale{why}")
        label = _shorten(_md_inline(entry.title), MD_HEADING_CHARS) or _md_inline(entry.id)
        heading = f"### {rank}. {label}"
        blocks.append("\n\n".join([heading, "\n".join(facts), _md_block(entry.content)]))
    return "\n\n".join(blocks) + "\n"


# -- xml


def _base64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")


def _xml_element(name: str, text: str, indent: str) -> str:
    """``<name>text</name>``, or its base64 form when XML cannot hold ``text``."""
    if _XML_INVALID.search(text):
        return f'{indent}<{name} encoding="base64">{_base64(text)}</{name}>'
    if not text:
        return f"{indent}<{name}/>"
    from xml.sax.saxutils import escape  # (see _render_xml)

    return f"{indent}<{name}>{escape(text, _XML_REFS)}</{name}>"


def _xml_result(row: dict[str, object]) -> list[str]:
    """The ``<result>`` element of one record, one child element per field but the rank."""
    lines = [f'  <result rank="{row["rank"]}">']
    for name in FIELDS[1:]:
        value = row[name]
        if not isinstance(value, list):
            lines.append(_xml_element(name, str(_flat_value(value)), "    "))
        elif value:
            keywords = [_xml_element("keyword", str(item), "      ") for item in value]
            lines += [f"    <{name}>", *keywords, f"    </{name}>"]
        else:
            lines.append(f"    <{name}/>")
    lines.append("  </result>")
    return lines


def _render_xml(results: Sequence[SearchResult], query: str) -> str:
    # Imported here: xml.sax.saxutils imports urllib.request (a quarter of a cold keyword
    # search's imports), and only this format needs it.
    from xml.sax.saxutils import quoteattr

    if _XML_INVALID.search(query):
        attrs = f'query="{_base64(query)}" queryEncoding="base64"'
    else:
        attrs = f"query={quoteattr(query, _XML_REFS)}"
    attrs += f' count="{len(results)}"'
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    if not results:
        lines.append(f"<searchResults {attrs}/>")
    else:
        lines.append(f"<searchResults {attrs}>")
        for row in result_rows(results):
            lines += _xml_result(row)
        lines.append("</searchResults>")
    return "\n".join(lines) + "\n"


_RENDERERS = {
    ExportFormat.TEXT: _render_text,
    ExportFormat.CSV: _render_csv,
    ExportFormat.MD: _render_md,
    ExportFormat.XML: _render_xml,
}
