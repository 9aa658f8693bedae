"""Reading a project's manifests and configuration files: one place for every reader of
them (:mod:`~engine.analyzer.project_files`, :mod:`~engine.analyzer.ci_config`,
:mod:`~engine.analyzer.manifest_sections`, :mod:`~engine.analyzer.package_requirements`,
:mod:`~engine.analyzer.package_manifests`).

A file is read through the path guard (:func:`engine.guards.files.read_project_bytes`):
a regular file, not larger than :data:`MAX_FILE_BYTES`, and a symlink that leaves its
folder is not followed, so a manifest linked to a file elsewhere on the machine says
nothing. A file that is absent, refused or malformed reads as ``None``: a manifest is
reported by what it declares, never raised on.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import yaml

from engine.core.errors import EngineError
from engine.guards.files import read_project_bytes

MAX_FILE_BYTES = 200_000


def read_text(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str | None:
    """The text of the file at ``path`` (UTF-8, undecodable bytes replaced), or None."""
    if not path.is_file():
        return None
    try:
        # a name the reader knows, hidden ones included (``.gitlab-ci.yml``, ``.npmrc``)
        data = read_project_bytes(path.parent, path, max_bytes=max_bytes, allow_hidden=True)
    except (EngineError, OSError):
        return None
    return data.decode("utf-8", errors="replace")


def read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML document, or ``{}``."""
    text = read_text(path)
    try:
        return tomllib.loads(text) if text is not None else {}
    except tomllib.TOMLDecodeError:
        return {}


def read_json(path: Path) -> Any:
    """The file's JSON value, or None."""
    text = read_text(path)
    try:
        return json.loads(text) if text is not None else None
    except ValueError:
        return None


def read_yaml(path: Path, *, as_written: bool = False) -> Any:
    """The file's YAML value by PyYAML's safe loader, or None; ``as_written``: by its base
    loader, which builds only strings, lists and mappings (``3.10`` stays ``3.10``, a key
    ``on`` stays ``on``)."""
    text = read_text(path)
    if text is None:
        return None
    try:
        return yaml.load(text, yaml.BaseLoader) if as_written else yaml.safe_load(text)
    except yaml.YAMLError:
        return None


def sub_table(doc: Any, key: str) -> dict[str, Any]:
    """``doc[key]`` when both are mappings, else ``{}``."""
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, dict) else {}


def one_line(value: Any, limit: int) -> str:
    """``value`` on one line (JSON for what is not text), cut to ``limit`` characters."""
    text = value if isinstance(value, str) else json.dumps(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
