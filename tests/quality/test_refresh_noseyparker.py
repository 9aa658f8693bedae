"""``scripts/refresh_noseyparker_rules.py`` on a small Nosey Parker repository (issue 48):
it copies the rule files, the rule sets, the licence and the notice, records the commit,
and names each selected rule RE2 refuses, with the reason, instead of dropping it."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "refresh_noseyparker_rules.py"
BUILTIN = "crates/noseyparker/data/default/builtin"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("refresh_noseyparker_rules", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _upstream(root: Path) -> Path:
    (root / BUILTIN / "rules").mkdir(parents=True)
    (root / BUILTIN / "rulesets").mkdir(parents=True)
    (root / BUILTIN / "rules" / "one.yml").write_text(
        "rules:\n"
        "- name: Fine\n  id: t.1\n  pattern: '(?x) tok_ ([a-z0-9]{8})  # the token\n'\n"
        "  examples: ['tok_ab12cd34']\n"
        "- name: Too long\n  id: t.2\n  pattern: 'x{1,1024}'\n",
        encoding="utf-8",
    )
    for name, ids in (("default.yml", "[t.1, t.2]"), ("np.hashes.yml", "[]")):
        text = f"rulesets:\n- id: x\n  include_rule_ids: {ids}\n"
        (root / BUILTIN / "rulesets" / name).write_text(text, encoding="utf-8")
    (root / "LICENSE").write_text("Apache License\n", encoding="utf-8")
    (root / "NOTICE").write_text("Nosey Parker\n", encoding="utf-8")
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "rules"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *command], cwd=root, check=True
        )
    return root


def test_the_refresh_copies_the_rules_and_names_what_re2_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = _script()
    target = tmp_path / "vendored"
    monkeypatch.setattr(module, "TARGET", target)
    assert module.main([str(_upstream(tmp_path / "np"))]) == 0
    out = capsys.readouterr().out
    assert "1 selected rules run on RE2, 1 skipped" in out
    assert "skipped t.2: RE2 cannot compile it" in out
    assert (target / "rules" / "one.yml").is_file()
    assert (target / "LICENSE").read_text(encoding="utf-8") == "Apache License\n"
    assert "commit: " in (target / "UPSTREAM").read_text(encoding="utf-8")


def test_the_refresh_of_a_folder_that_is_no_repository_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = _script()
    monkeypatch.setattr(module, "TARGET", tmp_path / "vendored")
    assert module.main([str(tmp_path)]) == 2
    assert "not a Nosey Parker repository" in capsys.readouterr().err
    assert not (tmp_path / "vendored").exists()  # nothing written
