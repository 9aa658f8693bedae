"""A v0.1 ``.claude/memory.config.json`` on the command line: its keys are read or named as
ignored, a bad key is a usage error naming it, and the prompt hook never fails on a bad
configuration or on stdin that is not its JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_usage_error, run_cli, sprocket_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository whose memory holds one note about sprockets."""
    return sprocket_project(tmp_path)


def _json_config(root: Path, data: object) -> None:
    (root / ".claude").mkdir(exist_ok=True)
    (root / ".claude" / "memory.config.json").write_text(json.dumps(data), encoding="utf-8")


def test_seed004_cli_reads_v01_json_config_and_names_a_bad_key(project: Path, home: Path) -> None:
    _json_config(
        project,
        {"vectorsDir": "elsewhere/vectors", "model": "Xenova/all-MiniLM-L6-v2",
         "ignoredDirs": ["node_modules"], "showProgress": True, "ftsDbName": "fts.sqlite"},
    )  # fmt: skip
    ok = run_cli("search", "sprocket", "--mode", "keyword", cwd=project, home=home)
    assert ok.returncode == 0, ok.stderr
    assert "Sprocket grease" in ok.stdout
    assert "'vectorsDir' is ignored" in ok.stderr and "model" not in ok.stderr
    _json_config(project, {"minScore": 0.3, "minScroe": 0.5})
    assert_usage_error(run_cli("list", cwd=project, home=home), "memory.config.json", "'minScroe'")
    _json_config(project, {"showProgress": "yes"})
    assert_usage_error(run_cli("stats", cwd=project, home=home), "'showProgress'", "true or false")


def test_seed000_hook_never_fails_on_a_bad_config_or_bad_stdin(project: Path, home: Path) -> None:
    _json_config(project, {"chunkSize": -5})
    prompt = json.dumps({"prompt": "what is the sprocket grease schedule?", "cwd": str(project)})
    hook = run_cli("hook", cwd=project, home=home, stdin=prompt)
    assert hook.returncode == 0
    assert "Sprocket grease schedule" in hook.stdout  # the defaults were used
    [line] = hook.stderr.splitlines()
    assert "'chunkSize'" in line and "using the default configuration" in line
    _json_config(project, {})
    garbage = run_cli("hook", cwd=project, home=home, stdin="sprocket grease schedule")
    assert garbage.returncode == 0
    assert garbage.stdout == ""  # not taken for a prompt
    assert "stdin is not the hook's JSON" in garbage.stderr
    assert "Traceback" not in garbage.stderr
