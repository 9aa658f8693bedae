"""The config file as text: the commented default file ``init`` writes, TOML-ready values,
and writing one key (``memory-tui import``)."""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import fields
from pathlib import Path

from engine.core.config import (
    _BY_NAME,
    CONFIG_JSON,
    CONFIG_TOML,
    DEFAULTS,
    SETTINGS,
    Config,
    _check,
    _read_json,
    _read_toml,
)
from engine.core.errors import ConfigError
from engine.core.models import SearchMode


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


def default_config_toml() -> str:
    """A commented config file listing every key with its default (for `init`)."""
    lines = [
        "# memory-tui configuration. Every key is optional; uncomment to change a default.",
        "# Environment variables override this file (name shown per key).",
        "",
    ]
    for setting in SETTINGS:
        default = getattr(DEFAULTS, setting.name)
        lines.append(f"# {setting.doc}")
        lines.append(f"# Allowed: {setting.allowed()}. Env: {setting.env}")
        lines.append(f"# {setting.name} = {_toml_value(default)}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(str(value))
    if isinstance(value, tuple):
        return json.dumps(list(value))
    return str(value)


def config_as_dict(config: Config) -> dict[str, object]:
    """The configuration as TOML-ready plain values (for the settings screen and tomli-w)."""
    return {f.name: _plain(getattr(config, f.name)) for f in fields(config) if f.name in _BY_NAME}


def _plain(value: object) -> object:
    if isinstance(value, SearchMode):
        return str(value)
    return list(value) if isinstance(value, tuple) else value


CONFIG_TABLE_HEAD = "| key | default | env | meaning |\n|---|---|---|---|\n"
"""The head of the README's configuration table."""


def config_table() -> str:
    """The README's configuration table, one row per setting in declaration order
    (:data:`engine.core.settings.SETTINGS`: its name, environment variable and README
    line; the default from :data:`engine.core.config.DEFAULTS`)."""
    rows = [
        f"| `{s.name}` | {_shown_default(s.name, s.readme_default)} | `{s.env}` | {s.readme} |"
        for s in SETTINGS
    ]
    return CONFIG_TABLE_HEAD + "\n".join(rows) + "\n"


def _shown_default(name: str, shown: str) -> str:
    value = getattr(DEFAULTS, name)
    if shown:
        return shown
    if isinstance(value, tuple) and not value:
        return "none"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`"


def with_config_table(readme: str) -> str:
    """``readme`` with its configuration table replaced by :func:`config_table`.

    Raises:
        ValueError: ``readme`` has no configuration table.
    """
    start = readme.find(CONFIG_TABLE_HEAD)
    if start < 0:
        raise ValueError("no configuration table (a line '| key | default | env | meaning |')")
    end = readme.find("\n\n", start)
    end = len(readme) if end < 0 else end + 1
    return readme[:start] + config_table() + readme[end:]
