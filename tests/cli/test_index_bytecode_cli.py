"""Where the user told Python not to write bytecode (``PYTHONDONTWRITEBYTECODE``), no
command writes it: not ``memory-tui index`` (the git hooks' command), not ``memory-tui
init`` (which used to compile the prompt hook's modules). Bytecode is the installer's to
write (pip compiles a wheel's modules; the Makefile asks uv with ``--compile-bytecode``)."""

from __future__ import annotations

from pathlib import Path

from cli_support import git_repo, run_console_script


def _written(prefix: Path) -> list[str]:
    return sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*.pyc"))


def test_an_index_run_writes_no_bytecode_where_python_was_told_not_to(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "project")
    folder = root / ".claude" / "knowledge"
    folder.mkdir(parents=True)
    (folder / "gears.md").write_text("# Gears\n\nSprockets are greased weekly.\n", "utf-8")
    prefix = tmp_path / "pycache"  # any bytecode written would go here
    env = {"PYTHONPYCACHEPREFIX": str(prefix), "PYTHONDONTWRITEBYTECODE": "1"}

    done = run_console_script("index", "--no-embed", cwd=root, home=home, env=env)

    assert done.returncode == 0, done.stderr
    assert "1 changed" in done.stdout  # the run indexed (and imported what indexing needs)
    assert _written(prefix) == []


def test_init_writes_no_bytecode_where_python_was_told_not_to(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "project")
    prefix = tmp_path / "pycache"
    env = {"PYTHONPYCACHEPREFIX": str(prefix), "PYTHONDONTWRITEBYTECODE": "1"}

    done = run_console_script(
        "init", "--skip-analyze", "--skip-index", "--no-hooks", cwd=root, home=home, env=env
    )

    assert done.returncode == 0, done.stderr
    assert (root / ".claude" / "settings.json").is_file()
    assert _written(prefix) == []
