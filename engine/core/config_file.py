"""Writing one key of the project's config file (``memory-tui import``, the settings screen)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

from engine.core.config import (
    _BY_NAME,
    CONFIG_JSON,
    CONFIG_TOML,
    _check,
    _plain,
    _read_json,
    _read_toml,
    _toml_value,
)
from engine.core.errors import ConfigError


def set_config_value(project_root: Path, name: str, value: object) -> Path:
    """Set one key in the project's config file (TOML unless only the JSON one exists).

    The value is validated like a loaded one. A TOML file whose key is not set yet gets
    the assignment appended (its comments kept); otherwise the file is rewritten from its
    parsed values. Returns the file written.

    Raises:
        ConfigError: unknown key, invalid value, or an unreadable config file.
    """
    setting = _BY_NAME.get(name)
    if setting is None:
        raise ConfigError(f"unknown key '{name}'")
    assigned = _check(setting, value, f"key '{name}'")
    checked = _plain(assigned)
    toml_path, json_path = project_root / CONFIG_TOML, project_root / CONFIG_JSON
    if json_path.is_file() and not toml_path.is_file():
        _read_json(json_path)  # a broken file is reported, not overwritten
        data = json.loads(json_path.read_text(encoding="utf-8"))
        data[setting.json_name] = checked
        json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        return json_path
    text = toml_path.read_text(encoding="utf-8") if toml_path.is_file() else ""
    current = _read_toml(toml_path) if text else {}
    if name in current:
        import tomli_w

        raw = tomllib.loads(text)
        raw[name] = checked
        text = tomli_w.dumps(raw)
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + f"{name} = {_toml_value(assigned)}\n"
    toml_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = toml_path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, toml_path)
    return toml_path
