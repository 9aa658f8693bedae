"""Issue 45, items 8 and 13: whole option names only, a secret never echoed, the nearest
name for a mistyped command, choice or option.

``serve-mcp --http --token abc`` was taken as ``--token-file abc`` (argparse's
abbreviations), and the error then quoted ``abc``: whatever a user types after an option
that carries a secret must not come back in a message, however the option is misspelled.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import assert_usage_error, git_repo, run_cli

from app.cli.parser import build_parser
from app.mcp.strict import unknown_arguments

SECRET = "Zq8sEcReTvAlUe0123456789"
"""What a user typed after a secret-bearing option: a token, or a path naming one."""

SECRET_WORDS = re.compile(r"token|secret|password|passwd|credential|api[-_]?key", re.I)
"""How an option that carries a secret (or the path of one) is recognised by its name."""


def _parsers(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def _secret_options() -> list[tuple[tuple[str, ...], str]]:
    return sorted(
        (path, name)
        for path, parser in _parsers(build_parser())
        for action in parser._actions
        if action.nargs != 0  # an option that takes a value (not a flag such as --secrets)
        for name in action.option_strings
        if name.startswith("--") and SECRET_WORDS.search(name)
    )


REACH_THE_HANDLER: dict[tuple[tuple[str, ...], str], list[list[str]]] = {
    (("serve-mcp",), "--token-file"): [["--http"], []],
}
"""For each secret-bearing option, the other arguments with which its value reaches the
command's own checks (with --http and without it: "goes with --http")."""


def test_every_parser_refuses_abbreviations() -> None:
    parsers = list(_parsers(build_parser()))
    assert len(parsers) > 20  # the main parser, every command, hooks' actions
    assert [" ".join(path) for path, p in parsers if p.allow_abbrev] == []


def test_token_is_not_taken_for_token_file(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "project")
    done = run_cli("serve-mcp", "--http", "--token", SECRET, cwd=root, home=home)

    assert_usage_error(done, "unrecognized arguments: --token (did you mean '--token-file'?)")
    assert SECRET not in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert not (root / ".claude").exists()  # nothing served, nothing opened


def test_the_secret_options_are_all_covered() -> None:
    assert _secret_options() == sorted(REACH_THE_HANDLER)


@pytest.mark.parametrize(("command", "option"), sorted(REACH_THE_HANDLER))
def test_no_message_repeats_a_secret_option_value(
    command: tuple[str, ...], option: str, tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "project")
    readable = tmp_path / f"{SECRET}-readable"
    readable.write_text("a-token-of-the-right-shape-0123456789\n")
    readable.chmod(0o644)
    short = tmp_path / f"{SECRET}-short"
    short.write_text("short\n")
    short.chmod(0o600)
    folder = tmp_path / f"{SECRET}-folder"
    folder.mkdir()
    misspelled = [
        [option[:-2], SECRET],  # an abbreviation
        [option[:-1] + "=" + SECRET],
        [option + "s", SECRET],
        [option.upper(), SECRET],
    ]
    values = [SECRET, str(tmp_path / SECRET), str(readable), str(short), str(folder)]
    runs = [[*command, *words] for words in misspelled]
    for extra in REACH_THE_HANDLER[command, option]:
        runs += [[*command, *extra, option, value] for value in values]
        runs += [[*command, *extra, f"{option}={value}"] for value in values]
    for argv in runs:
        done = run_cli(*argv, "--project", str(root), cwd=root, home=home)
        assert done.returncode == 2, (argv, done.stderr)
        assert "Traceback" not in done.stderr
        assert SECRET not in done.stdout + done.stderr, (argv, done.stderr)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serach", "x"], "unknown command 'serach' (did you mean 'search'?)"),
        (["exprot"], "unknown command 'exprot' (did you mean 'export'?)"),
        (["hooks", "instal"], "unknown command 'instal' (did you mean 'install'?)"),
        (["list", "--category", "gotchas"], "unknown choice 'gotchas' (did you mean 'gotcha'?)"),
        (["list", "--limt", "3"], "unrecognized arguments: --limt (did you mean '--limit'?)"),
        (["frobnicate"], "unknown command 'frobnicate' (see `memory-tui --help`)"),
    ],
)
def test_a_mistyped_name_gets_the_nearest_known_one(
    argv: list[str], message: str, tmp_path: Path, home: Path
) -> None:
    done = run_cli(*argv, cwd=git_repo(tmp_path / "project"), home=home)

    assert_usage_error(done, message)
    assert len(done.stderr.splitlines()) == 1


def test_the_cli_and_the_mcp_server_give_the_same_hint(tmp_path: Path, home: Path) -> None:
    cli = run_cli("search", "x", "--categry", "y", cwd=git_repo(tmp_path / "p"), home=home)
    mcp = unknown_arguments("memory_search", ["query", "category"], ["categry"])

    assert mcp is not None and "'categry' (did you mean 'category'?)" in mcp
    assert "--categry (did you mean '--category'?)" in cli.stderr
