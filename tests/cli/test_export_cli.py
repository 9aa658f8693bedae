"""Issue 45, item 13: ``markdown`` is md wherever a format is taken, ``list --format``, the
``export`` command (the app's exporter, to stdout or a file through the file guard), and
md output that keeps any content whole.

Projects are filled in-process with the fake embedder; the commands run here search by
keyword only, so they never load the model.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import select
import subprocess
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli
from fakes import FakeEmbedder
from markdown_it import MarkdownIt

from engine.embedding.base import DIMENSION
from engine.output.export import csv_cell_text, render
from engine.services.memory import Memory

FENCED = (
    "Release steps\n\n| step | command |\n|---|---|\n| build | `make dist` |\n\n"
    "```sh\nmake release VERSION=1.2\n```\n\n# Not a heading of the export\n\n"
    + " ".join(["The sprocket release checklist is long."] * 30)
)
NOTES = {
    FENCED: "pattern",
    'Sprocket "tension", <b>bold</b> & more;\nsecond line': "gotcha",
    "=HYPERLINK('http://x') sprocket formula": "general",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository with three notes: a long one of fences and a table, markup, and
    one a spreadsheet would run as a formula."""
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        for content, category in NOTES.items():
            memory.add(content, category=category)
    return root


def _tokens(markdown: str) -> list[str]:
    return [t.type for t in MarkdownIt("commonmark").enable("table").parse(markdown)]


def _fences(markdown: str) -> list[str]:
    parsed = MarkdownIt("commonmark").enable("table").parse(markdown)
    return [t.content for t in parsed if t.type == "fence"]


@pytest.mark.parametrize(
    "command",
    [
        ["search", "sprocket", "--mode", "keyword"],
        ["list"],
        ["export"],
    ],
)
def test_markdown_is_md_wherever_a_format_is_taken(
    command: list[str], project: Path, home: Path
) -> None:
    as_md = run_cli(*command, "--format", "md", cwd=project, home=home)
    as_markdown = run_cli(*command, "--format", "markdown", cwd=project, home=home)
    capitalised = run_cli(*command, "--format", "Markdown", cwd=project, home=home)

    assert as_md.returncode == 0, as_md.stderr
    assert as_md.stdout.startswith(("## Results", "### 1."))
    assert as_markdown.stdout == capitalised.stdout == as_md.stdout
    assert as_markdown.returncode == capitalised.returncode == 0


@pytest.mark.parametrize(
    "command", [["search", "sprocket", "--mode", "keyword"], ["list"], ["export"]]
)
def test_md_keeps_every_content_whole_in_its_own_block(
    command: list[str], project: Path, home: Path
) -> None:
    done = run_cli(*command, "--format", "md", cwd=project, home=home)

    assert done.returncode == 0, done.stderr
    assert sorted(_fences(done.stdout)) == sorted(content + "\n" for content in NOTES)
    assert "table_open" not in _tokens(done.stdout)  # the note's table stays in its block
    assert _tokens(done.stdout).count("heading_open") == len(NOTES) + (command[0] == "search")


def test_export_writes_every_entry_with_the_apps_exporter(
    project: Path, home: Path, tmp_path: Path
) -> None:
    done = run_cli("export", "--format", "csv", cwd=project, home=home)

    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout, newline="")))
    assert {csv_cell_text(row["content"]) for row in rows} == set(NOTES)
    assert done.stderr == "memory-tui: exported 3 entries as csv to stdout\n"
    with Memory.open(project, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        listed = memory.listing()
        expected = render(listed.results(), "csv", knowledge_prefix=memory.paths.knowledge_prefix)
    assert done.stdout == expected  # what the app's export writes for the same entries

    as_json = run_cli("export", cwd=project, home=home)  # json unless told otherwise
    assert {r["content"] for r in json.loads(as_json.stdout)} == set(NOTES)

    out = tmp_path / "out" / "memory.xml"
    out.parent.mkdir()
    to_file = run_cli("export", "-o", str(out), "--category", "gotcha", cwd=project, home=home)
    assert to_file.returncode == 0, to_file.stderr
    assert to_file.stdout == ""
    assert to_file.stderr == f"memory-tui: exported 1 entry as xml to {out}\n"
    assert out.read_text(encoding="utf-8").startswith('<?xml version="1.0"')
    assert "second line" in out.read_text(encoding="utf-8")


def test_list_takes_the_export_formats(project: Path, home: Path) -> None:
    as_json = run_cli("list", "--format", "json", cwd=project, home=home)
    legacy = run_cli("list", "--json", cwd=project, home=home)
    as_xml = run_cli("list", "--format", "xml", "-n", "2", cwd=project, home=home)

    assert as_json.stdout == legacy.stdout and as_json.returncode == 0
    assert as_xml.returncode == 0, as_xml.stderr
    assert as_xml.stdout.count("<result ") == 2


def test_export_to_a_link_or_a_missing_folder_writes_nothing(
    project: Path, home: Path, tmp_path: Path
) -> None:
    target = tmp_path / "target.txt"
    target.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "export.csv"
    link.symlink_to(target)

    through_link = run_cli("export", "-o", str(link), cwd=project, home=home)
    missing = run_cli("export", "-o", str(tmp_path / "nowhere" / "x.csv"), cwd=project, home=home)

    assert through_link.returncode == 1
    assert "is a symlink; nothing is written through a link" in through_link.stderr
    assert target.read_text(encoding="utf-8") == "keep me\n"
    assert missing.returncode == 1
    assert f"the folder {tmp_path / 'nowhere'} does not exist" in missing.stderr
    assert not (tmp_path / "nowhere").exists()
    for done in (through_link, missing):
        assert done.stdout == "" and "Traceback" not in done.stderr


def test_an_unknown_format_names_the_formats(project: Path, home: Path) -> None:
    done = run_cli("export", "--format", "yaml", cwd=project, home=home)

    assert done.returncode == 2
    assert "unknown format 'yaml': choose one of text, json, csv, md, xml" in done.stderr


def test_on_a_terminal_csv_shows_escape_sequences_inert(tmp_path: Path, home: Path) -> None:
    """csv keeps content exact in a pipe or a file, but a terminal would obey what the
    content holds: there it goes through the terminal guard."""
    root = git_repo(tmp_path / "project")
    hostile = "sprocket title \x1b]0;pwned\x07 end"
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add(hostile, category="gotcha")
    assert CLI is not None
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [CLI, "export", "--format", "csv"],
            cwd=root,
            env=clean_env(home),
            stdout=slave,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
        os.close(slave)
        shown = b""
        while select.select([master], [], [], 1)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
    piped = run_cli("export", "--format", "csv", cwd=root, home=home)

    assert done.returncode == 0, done.stderr
    assert b"\x1b" not in shown and b"\x07" not in shown
    assert "sprocket title ␛]0;pwned␇ end" in shown.decode("utf-8")
    assert hostile in piped.stdout  # exact where no terminal reads it
