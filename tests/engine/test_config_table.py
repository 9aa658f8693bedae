"""One declaration of the configuration (issue 49): each key is a ``Setting``
(engine/core/settings.py) and a typed field of ``Config`` with its default, checked
against each other here, and the README's table is written from them by
``scripts/config_table.py`` (a hand edit of the table fails here)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields
from pathlib import Path

from engine.core.config import DEFAULTS, SETTINGS, Config
from engine.core.config_file import CONFIG_TABLE_HEAD, config_table, with_config_table

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SCRIPT = ROOT / "scripts" / "config_table.py"


def test_the_readmes_configuration_table_is_the_settings() -> None:
    text = README.read_text(encoding="utf-8")
    assert config_table() in text, "run: python scripts/config_table.py"


def test_every_setting_is_a_config_field_of_its_type_and_every_field_a_setting() -> None:
    declared = [f for f in fields(Config) if f.name != "source"]
    assert [f.name for f in declared] == [s.name for s in SETTINGS]
    for spec, setting in zip(declared, SETTINGS, strict=True):
        default = getattr(DEFAULTS, spec.name)
        if setting.enum is not None:
            assert isinstance(default, setting.enum), spec.name
        else:
            assert type(default) is setting.kind, spec.name
        assert setting.readme, f"{spec.name} has no README line"


def test_the_table_has_a_row_per_setting_with_its_default_and_variable() -> None:
    rows = config_table().removeprefix(CONFIG_TABLE_HEAD).splitlines()
    assert len(rows) == len(SETTINGS)
    by_key = {row.split(" | ")[0].strip("| `"): row for row in rows}
    assert "| `hybrid` | `CLAUDE_MEMORY_SEARCH_MODE` |" in by_key["search_mode"]
    assert "| `false` | `CLAUDE_MEMORY_AUTO_PROMOTE` |" in by_key["auto_promote"]
    assert "| none | `CLAUDE_MEMORY_SOURCES_EXCLUDE` |" in by_key["sources_exclude"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def test_the_script_finds_a_hand_edit_and_rewrites_it(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    edited = README.read_text(encoding="utf-8").replace(
        "| `chunk_size` | `2000` |", "| `chunk_size` | `1500` |"
    )
    readme.write_text(edited, encoding="utf-8")

    checked = _run("--check", "--readme", str(readme))
    assert checked.returncode == 1 and "differs" in checked.stderr
    assert readme.read_text(encoding="utf-8") == edited  # --check writes nothing

    assert _run("--readme", str(readme)).returncode == 0
    assert readme.read_text(encoding="utf-8") == README.read_text(encoding="utf-8")
    assert _run("--check", "--readme", str(readme)).returncode == 0


def test_a_readme_without_the_table_is_refused_and_left_alone(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# A project\n\nNo configuration here.\n", encoding="utf-8")
    done = _run("--readme", str(readme))
    assert done.returncode == 2 and "no configuration table" in done.stderr
    assert readme.read_text(encoding="utf-8") == "# A project\n\nNo configuration here.\n"


def test_the_table_is_replaced_up_to_the_blank_line_after_it() -> None:
    text = "intro\n\n" + CONFIG_TABLE_HEAD + "| `x` | old | `X` | stale row |\n\nafter\n"
    replaced = with_config_table(text)
    assert replaced == "intro\n\n" + config_table() + "\nafter\n"
