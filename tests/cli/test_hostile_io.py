"""Hostile input and output through the ``memory-tui`` command line.

Entries holding terminal escape sequences are printed inert by every text output and kept
exact by the machine formats; arguments and stdin that are not UTF-8 get one clear error
line, never a traceback, and change nothing.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory

SEQUENCES = {
    "title": "\x1b]0;pwned\x07",
    "clear": "\x1b[2J\x1b[H",
    "link": "\x1b]8;;https://evil.example\x1b\\innocent\x1b]8;;\x1b\\",
    "c1 csi": "\x9b31m",
    "bidi": "\u202etxt.exe",
    "bell and backspace": "\x07\x08\x08",
    "carriage return": "hidden\rshown",
}
UNSAFE = ("\x1b", "\x07", "\x08", "\x9b", "\u202e", "\r")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose memory holds one note per escape sequence."""
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        for name, sequence in SEQUENCES.items():
            memory.add(f"sprocket {name} {sequence} end", keywords=[f"kw{sequence}"])
    return root


def contents(root: Path) -> dict[str, str]:
    """Entry id → content, read in-process."""
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        return {e.id: e.content for e in memory.list()}


def assert_inert(output: str) -> None:
    for char in UNSAFE:
        assert char not in output, f"{char!r} reached the terminal"


def test_text_outputs_show_escape_sequences_inert(project: Path, home: Path) -> None:
    stored = contents(project)
    ids = list(stored)
    commands = [
        ["list"],
        ["search", "sprocket", "--mode", "keyword", "--limit", "20"],
        ["search", "sprocket", "--mode", "keyword", "--limit", "20", "--format", "md"],
        ["stale"],
        *[["get", entry_id] for entry_id in ids],
    ]
    for args in commands:
        result = run_cli(*args, cwd=project, home=home)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert_inert(result.stdout)
        assert_inert(result.stderr)
    [title_id] = [i for i, content in stored.items() if "pwned" in content]
    assert (
        "sprocket title ␛]0;pwned␇ end" in run_cli("get", title_id, cwd=project, home=home).stdout
    )


def test_machine_formats_keep_the_data_exact(project: Path, home: Path) -> None:
    stored = contents(project)
    listed = run_cli("list", "--json", cwd=project, home=home)
    assert_inert(listed.stdout)  # JSON escapes what a terminal would obey
    assert {e["id"]: e["content"] for e in json.loads(listed.stdout)} == stored
    for entry_id, content in stored.items():
        got = run_cli("get", entry_id, "--json", cwd=project, home=home)
        assert_inert(got.stdout)
        assert json.loads(got.stdout)["content"] == content
    search = ["search", "sprocket", "--mode", "keyword", "--limit", "20"]
    found = run_cli(*search, "--json", cwd=project, home=home)
    assert_inert(found.stdout)
    assert {r["id"]: r["content"] for r in json.loads(found.stdout)} == stored
    xml = run_cli(*search, "--format", "xml", cwd=project, home=home).stdout
    for char in ("\x9b", "\u202e"):  # the rest is base64: XML cannot hold it
        assert char not in xml
    root = ET.fromstring(xml)
    assert len(root.findall("result")) == len(stored)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "caf\udce9", "--mode", "keyword"], "the query holds byte 0xe9"),
        (["get", "\udcff"], "no entry with id '\\udcff'"),
        (["delete", "\udcff"], "no entry with id '\\udcff'"),
        (["add", "note \udcff"], "content holds byte 0xff"),
        (["add", "note", "-k", "k\udcfe"], "a keyword holds byte 0xfe"),
    ],
)
def test_arguments_that_are_not_utf8_get_a_clear_error(
    project: Path, home: Path, args: list[str], message: str
) -> None:
    before = contents(project)
    result = run_cli(*args, cwd=project, home=home)  # the bytes 0xe9, 0xff in argv
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""
    assert contents(project) == before


def test_stdin_that_is_not_utf8_gets_a_clear_error(project: Path, home: Path) -> None:
    before = contents(project)
    result = run_cli("add", "-", cwd=project, home=home, stdin=b"a note \xff\xfe here")
    stderr = result.stderr
    assert result.returncode == 1, stderr
    assert "Traceback" not in stderr
    assert "stdin is not UTF-8 text (byte 0xff at offset 7)" in stderr
    assert contents(project) == before


def test_stale_output_shows_escape_sequences_inert(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "staleproject")
    (root / "gears.py").write_text("def spin():\n    return 1\n", encoding="utf-8")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add("\x1b]0;pwned\x07 gears.py spins \x1b[2J \u202efast", source="session")
    (root / "gears.py").write_text("def spun():\n    return 2\n", encoding="utf-8")
    result = run_cli("stale", cwd=root, home=home)
    assert result.returncode == 0, result.stderr
    assert "␛]0;pwned␇ gears.py" in result.stdout  # listed, shown inert
    assert_inert(result.stdout)
    listed = run_cli("stale", "--json", cwd=root, home=home)
    assert_inert(listed.stdout)
    assert json.loads(listed.stdout)[0]["content"].startswith("\x1b]0;pwned\x07 gears.py")
