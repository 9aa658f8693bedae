"""A pattern git cannot read (a line ending in a lone backslash) is dropped from a project's
file, as git drops it, and never stops a walk; in the configuration it is a clear error
naming the key. git/git's ``templates/Makefile`` writes ``> \\`` at the end of a recipe
line: reading its outputs stopped ``init`` and ``sources --explain`` with a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from project_files import sources, write

from engine.analyzer.gitignore import git_patterns, setting_patterns
from engine.analyzer.ownership import read_ownership
from engine.core.config import load_config
from engine.core.errors import ConfigError
from engine.services.source_report import explain_sources

README = "# Tool\n\nThe tool keeps every page it reads.\n"


def test_a_line_git_cannot_read_is_dropped_and_the_others_kept() -> None:
    spec = git_patterns(["out\\", "*.log", "!keep.log"])
    assert spec.match_file("debug.log") and not spec.match_file("keep.log")
    assert not spec.match_file("out\\") and not spec.match_file("out")


def test_a_gitignore_with_a_trailing_backslash_is_read_as_git_reads_it(tmp_path: Path) -> None:
    write(tmp_path, {
        ".gitignore": "build-output\\\n*.generated.md\n",
        "README.md": README, "docs/api.generated.md": README, "docs/guide.md": README,
    })  # fmt: skip
    assert sources(tmp_path) == ["README.md", "docs/guide.md"]


def test_a_makefile_recipe_that_redirects_at_a_line_end_is_read(tmp_path: Path) -> None:
    write(tmp_path, {
        "templates/Makefile": (
            "boilerplates.made:\n"
            "\tsed -e 's|@PERL@|perl|g' $$template > \\\n"
            "\t  blt/$$dst\n"
            "\techo done > made/notes.md\n"
        ),
        "README.md": README,
        "templates/made/notes.md": README,
        ".gitattributes": "docs\\ linguist-documentation\n*.md text\n",
    })  # fmt: skip
    owned = read_ownership(tmp_path)
    assert [folder for folder, _ in owned.built] == ["templates"]
    assert owned.built[0][1].match_file("made/notes.md")
    report = explain_sources(tmp_path, load_config(tmp_path))
    assert report.summary().startswith("docs 1 (markdown 1)"), report.summary()


@pytest.mark.parametrize("key", ["sources", "sources_exclude", "analyzer_include"])
def test_a_setting_pattern_git_cannot_read_is_an_error_naming_it(key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        setting_patterns(key, ["docs/**", "notes\\"])
    assert str(caught.value).startswith(f"{key}: 'notes\\\\' is not a .gitignore pattern")
    assert "correct or remove it" in str(caught.value)


def test_cli_says_which_setting_holds_the_bad_pattern_and_loses_nothing(tmp_path: Path) -> None:
    project = git_repo(tmp_path / "p")
    write(project, {"README.md": README})
    home = tmp_path / "home"
    bad = run_cli(
        "sources", "--explain", cwd=project, home=home,
        env={"CLAUDE_MEMORY_SOURCES": "docs\\"},
    )  # fmt: skip
    assert bad.returncode != 0
    assert "sources: 'docs\\\\' is not a .gitignore pattern git can read" in bad.stderr
    assert "Traceback" not in bad.stderr
    good = run_cli("sources", "--explain", cwd=project, home=home)
    assert good.returncode == 0 and "in   README.md  (docs, markdown)" in good.stdout
