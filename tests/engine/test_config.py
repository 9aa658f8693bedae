"""Layered configuration: defaults < file (TOML or JSON) < environment, strictly validated."""

from __future__ import annotations

import json
import logging
import re
import tomllib
from pathlib import Path

import pytest

from engine.core.config import (
    CONFIG_JSON,
    CONFIG_TOML,
    DEFAULTS,
    SETTINGS,
    Config,
    load_config,
)
from engine.core.config_file import config_as_dict, default_config_toml
from engine.core.errors import ConfigError
from engine.core.models import SearchMode


def write_toml(root: Path, text: str) -> Path:
    path = root / CONFIG_TOML
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_json(root: Path, data: object) -> Path:
    path = root / CONFIG_JSON
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


class TestLayering:
    def test_defaults_without_file_or_env(self, tmp_path: Path) -> None:
        config = load_config(tmp_path, env={})
        assert config == Config()
        assert config.source == "defaults"
        assert config.search_mode is SearchMode.HYBRID

    def test_toml_overrides_defaults(self, tmp_path: Path) -> None:
        write_toml(tmp_path, 'search_mode = "keyword"\nchunk_size = 1500\nmin_score = 0.4\n')
        config = load_config(tmp_path, env={})
        assert config.search_mode is SearchMode.KEYWORD
        assert config.chunk_size == 1500
        assert config.min_score == pytest.approx(0.4)
        assert config.rrf_k == DEFAULTS.rrf_k  # untouched keys keep their default
        assert str(CONFIG_TOML) in config.source

    def test_env_overrides_toml(self, tmp_path: Path) -> None:
        write_toml(tmp_path, "chunk_size = 1500\ndefault_limit = 7\n")
        env = {"CLAUDE_MEMORY_CHUNK_SIZE": "2000", "CLAUDE_MEMORY_AUTO_PROMOTE": "yes"}
        config = load_config(tmp_path, env=env)
        assert config.chunk_size == 2000
        assert config.default_limit == 7
        assert config.auto_promote is True
        assert config.source.endswith("environment")

    def test_process_environment_is_read_by_default(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("CLAUDE_MEMORY_RRF_K", "30")
        assert load_config(tmp_path).rrf_k == 30

    def test_json_file_uses_camel_case(self, tmp_path: Path) -> None:
        write_json(
            tmp_path,
            {"defaultSearchMode": "vector", "chunkOverlapPercent": 20, "minScore": -0.5},
        )
        config = load_config(tmp_path, env={})
        assert config.search_mode is SearchMode.VECTOR
        assert config.chunk_overlap == 20
        assert config.min_score == -0.5
        assert str(CONFIG_JSON) in config.source

    def test_json_rejects_snake_case_keys(self, tmp_path: Path) -> None:
        write_json(tmp_path, {"chunk_size": 1200})
        with pytest.raises(ConfigError, match="unknown key 'chunk_size'"):
            load_config(tmp_path, env={})

    def test_toml_wins_over_json_with_a_warning(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        write_toml(tmp_path, "chunk_size = 1500\n")
        write_json(tmp_path, {"chunkSize": 3000, "rrfK": 10})
        with caplog.at_level(logging.WARNING, logger="engine.core.config"):
            config = load_config(tmp_path, env={})
        assert config.chunk_size == 1500
        assert config.rrf_k == DEFAULTS.rrf_k  # nothing at all is taken from the JSON file
        assert any("TOML" in r.getMessage() for r in caplog.records)

    def test_config_as_dict_round_trips_through_toml(self, tmp_path: Path) -> None:
        import tomli_w

        custom = Config(search_mode=SearchMode.VECTOR, chunk_size=800, auto_promote=True)
        write_toml(tmp_path, tomli_w.dumps(config_as_dict(custom)))
        loaded = load_config(tmp_path, env={})
        assert config_as_dict(loaded) == config_as_dict(custom)


class TestFileValidation:
    def test_unknown_key_names_file_key_and_known_keys(self, tmp_path: Path) -> None:
        path = write_toml(tmp_path, "chunk_sise = 1000\n")
        with pytest.raises(ConfigError) as info:
            load_config(tmp_path, env={})
        message = str(info.value)
        assert str(path) in message
        assert "'chunk_sise'" in message
        for setting in SETTINGS:
            assert setting.name in message

    def test_unknown_key_fails_the_whole_file(self, tmp_path: Path) -> None:
        write_toml(tmp_path, "chunk_size = 1500\nbogus = 1\n")
        with pytest.raises(ConfigError):
            load_config(tmp_path, env={})

    @pytest.mark.parametrize(
        ("line", "range_text"),
        [
            ("chunk_size = 50", "from 100 to 10000"),
            ("chunk_overlap = 51", "from 0 to 50"),
            ("min_score = 1.5", "from -1 to 1"),
            ("default_limit = 0", "from 1 to 100"),
            ("rrf_k = 0", "from 1 to 1000"),
        ],
    )
    def test_out_of_range_names_the_range(self, tmp_path: Path, line: str, range_text: str) -> None:
        path = write_toml(tmp_path, line + "\n")
        key = line.split()[0]
        with pytest.raises(ConfigError) as info:
            load_config(tmp_path, env={})
        message = str(info.value)
        assert str(path) in message
        assert f"'{key}'" in message
        assert range_text in message

    @pytest.mark.parametrize(
        "line",
        [
            'chunk_size = "1000"',
            "chunk_size = 1000.5",
            "min_score = [0.2]",
            "search_mode = 3",
            'search_mode = "fuzzy"',
            'secret_policy = "ignore"',
            'knowledge_dir = "  "',
            "min_score = nan",
        ],
    )
    def test_wrong_type_or_value_is_rejected(self, tmp_path: Path, line: str) -> None:
        write_toml(tmp_path, line + "\n")
        with pytest.raises(ConfigError, match="expected"):
            load_config(tmp_path, env={})

    def test_integral_float_is_accepted_for_an_int_setting(self, tmp_path: Path) -> None:
        write_toml(tmp_path, "chunk_size = 1200.0\nmin_score = 0\n")
        config = load_config(tmp_path, env={})
        assert config.chunk_size == 1200
        assert isinstance(config.chunk_size, int)
        assert isinstance(config.min_score, float)

    @pytest.mark.parametrize("value", ['"true"', "1", "0"])
    def test_bool_is_strict_in_toml(self, tmp_path: Path, value: str) -> None:
        write_toml(tmp_path, f"auto_promote = {value}\n")
        with pytest.raises(ConfigError, match="true or false"):
            load_config(tmp_path, env={})

    def test_bool_is_strict_in_json(self, tmp_path: Path) -> None:
        write_json(tmp_path, {"autoPromote": 1})
        with pytest.raises(ConfigError, match="autoPromote"):
            load_config(tmp_path, env={})

    def test_true_is_not_an_integer(self, tmp_path: Path) -> None:
        write_json(tmp_path, {"chunkSize": True})
        with pytest.raises(ConfigError, match="chunkSize"):
            load_config(tmp_path, env={})

    def test_malformed_toml_names_the_file(self, tmp_path: Path) -> None:
        path = write_toml(tmp_path, "chunk_size = = 3\n")
        with pytest.raises(ConfigError, match=re.escape(str(path))):
            load_config(tmp_path, env={})

    def test_malformed_json_names_the_file(self, tmp_path: Path) -> None:
        path = tmp_path / CONFIG_JSON
        path.parent.mkdir(parents=True)
        path.write_text("{not json", encoding="utf-8")
        with pytest.raises(ConfigError, match=re.escape(str(path))):
            load_config(tmp_path, env={})

    def test_json_top_level_must_be_an_object(self, tmp_path: Path) -> None:
        write_json(tmp_path, [1, 2])
        with pytest.raises(ConfigError, match="object"):
            load_config(tmp_path, env={})


class TestEnvironment:
    @pytest.mark.parametrize(
        ("var", "value"),
        [
            ("CLAUDE_MEMORY_CHUNK_SIZE", "big"),
            ("CLAUDE_MEMORY_CHUNK_SIZE", "99"),
            ("CLAUDE_MEMORY_MIN_SCORE", "2"),
            ("CLAUDE_MEMORY_MIN_SCORE", "nan"),
            ("CLAUDE_MEMORY_AUTO_PROMOTE", "maybe"),
            ("CLAUDE_MEMORY_SEARCH_MODE", "semantic"),
            ("CLAUDE_MEMORY_SECRET_POLICY", "allow"),
        ],
    )
    def test_bad_value_names_the_variable(self, tmp_path: Path, var: str, value: str) -> None:
        with pytest.raises(ConfigError, match=var):
            load_config(tmp_path, env={var: value})

    @pytest.mark.parametrize(
        ("text", "expected"),
        [("1", True), ("TRUE", True), (" on ", True), ("0", False), ("No", False)],
    )
    def test_bool_spellings(self, tmp_path: Path, text: str, expected: bool) -> None:
        config = load_config(tmp_path, env={"CLAUDE_MEMORY_AUTO_PROMOTE": text})
        assert config.auto_promote is expected

    def test_types_are_converted(self, tmp_path: Path) -> None:
        env = {
            "CLAUDE_MEMORY_MIN_SCORE": "0.3",
            "CLAUDE_MEMORY_SEARCH_MODE": "keyword",
            "CLAUDE_MEMORY_DEFAULT_LIMIT": " 12 ",
        }
        config = load_config(tmp_path, env=env)
        assert config.min_score == pytest.approx(0.3)
        assert config.search_mode is SearchMode.KEYWORD
        assert config.default_limit == 12

    def test_non_config_and_unknown_variables_are_ignored(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        env = {
            "CLAUDE_MEMORY_PROJECT": "/somewhere",
            "CLAUDE_MEMORY_LOG_LEVEL": "debug",
            "CLAUDE_MEMORY_TYPO": "1",
            "OTHER_VAR": "x",
        }
        with caplog.at_level(logging.WARNING, logger="engine.core.config"):
            config = load_config(tmp_path, env=env)
        assert config == Config()
        assert any("CLAUDE_MEMORY_TYPO" in r.getMessage() for r in caplog.records)
        assert not any("CLAUDE_MEMORY_PROJECT" in r.getMessage() for r in caplog.records)


class TestDefaultFile:
    def test_parses_and_lists_every_setting(self) -> None:
        text = default_config_toml()
        assert tomllib.loads(text) == {}  # everything is commented out
        for setting in SETTINGS:
            assert f"# {setting.name} = " in text
            assert setting.env in text

    def test_uncommented_defaults_load_as_the_defaults(self, tmp_path: Path) -> None:
        lines = [
            line[2:]
            for line in default_config_toml().splitlines()
            if re.match(r"# [a-z_]+ = ", line)
        ]
        assert len(lines) == len(SETTINGS)
        write_toml(tmp_path, "\n".join(lines) + "\n")
        config = load_config(tmp_path, env={})
        assert config_as_dict(config) == config_as_dict(DEFAULTS)


def test_the_generated_config_describes_the_secret_allowlist_as_exact_text_not_patterns() -> None:
    from engine.core.config_file import default_config_toml

    text = default_config_toml()
    block = text[text.index("# Known false positives") : text.index("# secret_allowlist")]
    assert "never a pattern" in block
    assert "glob" not in block
