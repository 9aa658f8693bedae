"""Layered configuration: defaults < config file < ``CLAUDE_MEMORY_*`` environment.

The file is ``.claude/memory.config.toml`` (snake_case keys) or, for projects set up
by the original tool, ``.claude/memory.config.json`` (camelCase keys). Validation is
strict: an unknown key, a wrong type or an out-of-range value raises
:class:`~engine.core.errors.ConfigError` naming the file (or variable), the key and what
is allowed. Nothing is half-applied.
"""

from __future__ import annotations

import json
import logging
import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.core.config_legacy import translate_legacy
from engine.core.defaults import DEFAULT_SOURCES
from engine.core.errors import ConfigError
from engine.core.folders import FOLDER_KEYS, folder_inside
from engine.core.models import Fusion, NearDuplicatePolicy, SearchMode, SecretPolicy
from engine.core.settings import SETTINGS as SETTINGS
from engine.core.settings import Setting
from engine.core.store_uri import CREDENTIALS_REFUSAL, check_store_uri, looks_like_credential_key

log = logging.getLogger(__name__)

CONFIG_TOML = Path(".claude") / "memory.config.toml"
CONFIG_JSON = Path(".claude") / "memory.config.json"
ENV_PREFIX = "CLAUDE_MEMORY_"
# Environment variables with the prefix that are not configuration keys.
_NON_CONFIG_ENV = {"CLAUDE_MEMORY_PROJECT", "CLAUDE_MEMORY_LOG_LEVEL", "CLAUDE_MEMORY_CACHE_DIR"}


_BY_NAME = {s.name: s for s in SETTINGS}
_BY_JSON = {s.json_name: s for s in SETTINGS}
_BY_ENV = {s.env: s for s in SETTINGS}


@dataclass(frozen=True, slots=True)
class Config:
    """Resolved configuration. Construct with :func:`load_config`.

    One field per key of :data:`SETTINGS`, in its order: the key's type and default.
    Everything else about a key (its names, bounds, choices, documentation, README line)
    is its :class:`Setting`; tests/engine/test_config_table.py holds the two together.
    """

    search_mode: SearchMode = SearchMode.HYBRID
    min_score: float = 0.20
    chunk_size: int = 2000
    chunk_overlap: int = 15
    default_limit: int = 5
    fusion: Fusion = Fusion.ZSCORE
    rrf_k: int = 60
    keyword_weight: float = 1.0
    promote_threshold: int = 5
    auto_promote: bool = False
    count_references: bool = True
    secret_policy: SecretPolicy = SecretPolicy.REJECT
    secret_allowlist: tuple[str, ...] = ()
    sources: tuple[str, ...] = DEFAULT_SOURCES
    sources_exclude: tuple[str, ...] = ()
    analyzer_include: tuple[str, ...] = ()
    analyzer_exclude: tuple[str, ...] = ()
    near_duplicate: NearDuplicatePolicy = NearDuplicatePolicy.REPORT
    knowledge_dir: str = ".claude/knowledge"
    max_file_bytes: int = 2_000_000
    store_uri: str = ""
    store_allow_http: bool = False
    session_capture: bool = True
    session_tool_output: bool = False
    session_recall_tokens: int = 1_500
    source: str = "defaults"
    """Where non-default values came from (for `doctor` and the settings screen)."""


DEFAULTS = Config()


def load_config(project_root: Path, env: Mapping[str, str] | None = None) -> Config:
    """Resolve the configuration of the project at ``project_root``.

    Raises:
        ConfigError: the file cannot be parsed, or any key or value is invalid.
    """
    environ = os.environ if env is None else env
    values: dict[str, Any] = {}
    origins: list[str] = []
    where = {name: f"{name} (default {getattr(DEFAULTS, name)!r})" for name in FOLDER_KEYS}
    toml_path, json_path = project_root / CONFIG_TOML, project_root / CONFIG_JSON
    if toml_path.is_file():
        values.update(_read_toml(toml_path))
        where.update({k: f"{toml_path}: key '{k}'" for k in values})
        origins.append(str(CONFIG_TOML))
        if json_path.is_file():
            log.warning("both %s and %s exist; using the TOML file", CONFIG_TOML, CONFIG_JSON)
    elif json_path.is_file():
        values.update(_read_json(json_path))
        where.update({k: f"{json_path}: key '{_BY_NAME[k].json_name}'" for k in values})
        origins.append(str(CONFIG_JSON))
    env_values = _read_env(environ)
    if env_values:
        origins.append("environment")
    values.update(env_values)
    where.update({k: _BY_NAME[k].env for k in env_values})
    for name in FOLDER_KEYS:  # e.g. knowledge_dir = "../x", or a symlink out of the project
        folder_inside(project_root, values.get(name, getattr(DEFAULTS, name)), where[name])
    return replace(DEFAULTS, **values, source=" + ".join(["defaults", *origins]))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read TOML: {exc}") from exc
    return {
        setting.name: _check(setting, raw, f"{path}: key '{key}'")
        for key, raw in data.items()
        for setting in [_lookup(_BY_NAME, key, path)]
    }


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object at the top level")
    data = translate_legacy(data, path)  # the original tool's keys (vectorsDir, model, ...)
    return {
        setting.name: _check(setting, raw, f"{path}: key '{key}'")
        for key, raw in data.items()
        for setting in [_lookup(_BY_JSON, key, path)]
    }


def _lookup(table: Mapping[str, Setting], key: str, path: Path) -> Setting:
    setting = table.get(key)
    if setting is None and looks_like_credential_key(key):
        raise ConfigError(CREDENTIALS_REFUSAL.format(where=f"{path}: key '{key}'"))
    if setting is None:
        known = ", ".join(sorted(table))
        raise ConfigError(f"{path}: unknown key '{key}' (known keys: {known})")
    return setting


def _read_env(environ: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for var, text in environ.items():
        if not var.startswith(ENV_PREFIX) or var in _NON_CONFIG_ENV:
            continue
        setting = _BY_ENV.get(var)
        if setting is None:
            log.warning("ignoring unknown environment variable %s", var)
            continue
        values[setting.name] = _check(setting, _parse_env(setting, text, var), var)
    return values


def _parse_env(setting: Setting, text: str, var: str) -> object:
    text = text.strip()
    try:
        if setting.kind is bool:
            lowered = text.lower()
            if lowered in {"1", "true", "yes", "on"}:
                return True
            if lowered in {"0", "false", "no", "off"}:
                return False
            raise ValueError(text)
        if setting.kind is int:
            return int(text)
        if setting.kind is float:
            return float(text)
        if setting.kind is tuple:
            return [part.strip() for part in text.split(",") if part.strip()]
    except ValueError:
        raise ConfigError(f"{var}={text!r}: expected {setting.allowed()}") from None
    return text


def _check(setting: Setting, value: object, where: str) -> object:
    """Validate one value against its setting; returns the value converted to its type."""
    if setting.name == "store_uri":  # never echoed: it may hold credentials
        return check_store_uri(value, where)
    problem = f"{where}: expected {setting.allowed()}, got {value!r}"
    if setting.kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(problem)
        return value
    if setting.kind is tuple:
        if not isinstance(value, list | tuple) or not all(
            isinstance(v, str) and v.strip() and "\x00" not in v for v in value
        ):
            raise ConfigError(problem)
        return tuple(v.strip() for v in value)
    if setting.kind in (int, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(problem)
        if setting.kind is int and not float(value).is_integer():
            raise ConfigError(problem)
        number = setting.kind(value)
        low, high = setting.minimum, setting.maximum
        # NaN compares false with everything, so it would slip through a range check.
        if not math.isfinite(number):
            raise ConfigError(problem)
        if (low is not None and number < low) or (high is not None and number > high):
            raise ConfigError(problem)
        return number
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(problem)
    if setting.enum is not None:
        if value not in setting.choices:
            raise ConfigError(problem)
        return setting.enum(value)
    return value
