"""Issue 45, item 11: Ctrl-C during ``init`` says what was done and that ``init``
resumes; a second ``init`` then does only what was left.

The real console script gets a real SIGINT while it computes the vectors (its longest
step), as a terminal sends it on Ctrl-C; the real model is loaded.
"""

from __future__ import annotations

import re
import signal
import subprocess
from pathlib import Path

import pytest
from cli_support import (
    CLI,
    clean_env,
    git_repo,
    run_console_script,
    sigint_as_from_a_terminal,
    waiting,
)

SECTIONS = 120


def _repository_with_docs(root: Path) -> Path:
    git_repo(root)
    docs = root / "docs"
    docs.mkdir()
    for page in range(6):
        text = [f"# Page {page}\n"]
        for section in range(SECTIONS // 6):
            text.append(
                f"\n## Topic {page}.{section}\n\nThe gear train {page} drives sprocket "
                f"{section}; its chain is tensioned weekly and greased every {section + 2} days.\n"
            )
        (docs / f"page{page}.md").write_text("".join(text), encoding="utf-8")
    return root


@pytest.mark.slow
def test_ctrl_c_during_init_says_how_far_it_got_and_init_resumes(
    tmp_path: Path, home: Path
) -> None:
    root = _repository_with_docs(tmp_path / "project")
    assert CLI is not None
    process = subprocess.Popen(
        [CLI, "init", "--no-hooks"],
        cwd=root,
        env=clean_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_from_a_terminal,
    )
    assert process.stderr is not None
    before = []
    for line in process.stderr:
        before.append(line)
        if "computing the vectors" in line:
            process.send_signal(signal.SIGINT)
            break
    out, rest = process.communicate(timeout=120)

    assert process.returncode == 130, "".join(before) + rest
    assert out == ""
    assert "Traceback" not in rest
    said = re.fullmatch(
        r"memory-tui: init interrupted while computing the vectors \(`memory-tui embed` alone "
        r"also resumes them\); done: project files \((\d+) created\), analysis, keyword index\. "
        r"Run `memory-tui init` again to resume: it keeps what is made and does only what is "
        r"left",
        rest.splitlines()[-1],
    )
    assert said is not None, rest
    assert waiting(root) > 0  # the vectors were indeed cut short

    again = run_console_script("init", "--no-hooks", cwd=root, home=home)

    assert again.returncode == 0, again.stderr
    assert f"files created: 0, merged: 0, already there: {said[1]}" in again.stdout
    assert "0 entries created, 8 files unchanged" in again.stdout  # 2 knowledge, 6 docs
    assert "discovery entries 0 new" in again.stdout
    assert waiting(root) == 0
