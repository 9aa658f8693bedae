"""CSV output keeps multi-line fields (CRLF, blank lines, quotes) whole (RFC 4180)."""

from __future__ import annotations


def test_seed003_f8_csv_multi_line_records_round_trip_rfc4180() -> None:
    import csv
    import io

    from engine import render
    from engine.core.models import Category, Entry, SearchResult

    content = 'First line, with "quotes"\r\nsecond line\n\nfourth line after a blank one'
    entry = Entry(id="e1", content=content, category=Category.GOTCHA, section_title="A\nB")
    other = Entry(id="e2", content="one line")
    output = render([SearchResult(entry, 0.5), SearchResult(other, 0.4)], "csv", query="q")
    first, second = list(csv.DictReader(io.StringIO(output, newline="")))
    assert (first["id"], first["content"], first["sectionTitle"]) == ("e1", content, "A\nB")
    assert (second["id"], second["content"]) == ("e2", "one line")
