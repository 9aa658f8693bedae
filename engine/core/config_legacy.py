"""The original tool's JSON configuration keys that memory-tui has no setting of its own for.

``.claude/memory.config.json`` of claude-memory v0.1 (seed 004, "MemoryConfig") and v0.2
(seed 000, "MemoryConfigFile") may hold keys besides the camelCase names of memory-tui's
settings. Each is read here: turned into a setting where it has a meaning, else warned
about and dropped. A value of the wrong type is still a configuration error naming the key.

- ``ignoredDirs``: each folder is left out of the analysis and of the indexed sources
  (``name/`` added to ``analyzerExclude`` and ``sourcesExclude``);
- ``vectorsDir``: ignored, the memory lives in ``.claude/memory/``;
- ``ftsDbName``: ignored, the keyword index is ``.claude/memory/fts.sqlite``;
- ``model``: ignored unless it names all-MiniLM-L6-v2, the one model memory-tui embeds with;
- ``showProgress``: ignored, progress is shown when stderr is a terminal.

A key left at the original default is accepted without a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core.errors import ConfigError

log = logging.getLogger(__name__)

MODEL = "all-MiniLM-L6-v2"
_IGNORED = {
    "vectorsDir": (str, ".claude/memory/vectors", "the memory lives in .claude/memory/"),
    "ftsDbName": (str, "fts.sqlite", "the keyword index is .claude/memory/fts.sqlite"),
    "showProgress": (bool, True, "progress is shown when stderr is a terminal"),
    "model": (str, f"Xenova/{MODEL}", f"memory-tui embeds with {MODEL} only"),
}
LEGACY_KEYS = frozenset({*_IGNORED, "ignoredDirs"})


def translate_legacy(data: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """``data`` (a parsed JSON config) with the legacy keys mapped or dropped.

    Raises:
        ConfigError: a legacy key's value has the wrong type.
    """
    out = {k: v for k, v in data.items() if k not in LEGACY_KEYS}
    for key, (kind, default, reason) in _IGNORED.items():
        if key not in data:
            continue
        value = data[key]
        if not isinstance(value, kind) or (kind is str and not str(value).strip()):
            noun = "true or false" if kind is bool else "a string"
            raise ConfigError(f"{path}: key '{key}': expected {noun}, got {value!r}")
        same = value == default or (key == "model" and str(value).endswith(MODEL))
        if not same:
            log.warning("%s: key '%s' is ignored: %s", path, key, reason)
    if "ignoredDirs" in data:
        folders = data["ignoredDirs"]
        if not isinstance(folders, list) or not all(
            isinstance(f, str) and f.strip("/ ") and "\x00" not in f for f in folders
        ):
            raise ConfigError(
                f"{path}: key 'ignoredDirs': expected a list of folder names, got {folders!r}"
            )
        patterns = [f.strip().strip("/") + "/" for f in folders]
        for key in ("analyzerExclude", "sourcesExclude"):
            existing = out.get(key, [])
            out[key] = [*existing, *patterns] if isinstance(existing, list) else existing
    return out
