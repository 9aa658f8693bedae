"""A v0.1 ``.claude/memory.config.json``: its keys mapped onto today's settings, or warned
about and ignored, and a wrong type naming the key.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from engine.core.errors import ConfigError


def test_seed004_v01_json_config_keys_are_mapped_or_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from engine.core.config import load_config

    config_file = tmp_path / ".claude" / "memory.config.json"
    config_file.parent.mkdir()
    legacy = {
        "knowledgeDir": ".claude/knowledge",
        "vectorsDir": ".claude/memory/vectors",  # the default: silently accepted
        "chunkSize": 1500,
        "model": "Xenova/all-MiniLM-L6-v2",
        "ignoredDirs": ["node_modules", "dist/", "legacy"],
        "showProgress": True,
        "ftsDbName": "keywords.sqlite",  # not the default: warned about
        "minScore": 0.3,
    }
    config_file.write_text(json.dumps(legacy), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        config = load_config(tmp_path)
    assert config.chunk_size == 1500 and config.min_score == 0.3
    assert config.analyzer_exclude == ("node_modules/", "dist/", "legacy/")
    assert config.sources_exclude == ("node_modules/", "dist/", "legacy/")
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1 and "'ftsDbName' is ignored" in warned[0]
    config_file.write_text(json.dumps({"model": "bge-large", "showProgress": False}), "utf-8")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        load_config(tmp_path)
    assert {r.getMessage().split("'")[1] for r in caplog.records} == {"model", "showProgress"}
    config_file.write_text(json.dumps({"ignoredDirs": "node_modules"}), "utf-8")
    with pytest.raises(ConfigError, match="'ignoredDirs'"):
        load_config(tmp_path)
