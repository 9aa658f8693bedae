"""Property tests at the boundaries: whatever arrives, a clear answer and never a traceback.

* the config loader, on any TOML or JSON file and any ``CLAUDE_MEMORY_*`` variables:
  a :class:`Config` or a :class:`ConfigError`, nothing else;
* the MCP tools and resources, through the real SDK client in process, on any arguments:
  a result (errors carry a stable code, never ``INTERNAL_ERROR``) or a JSON-RPC error;
* the CLI, through its parser and command dispatch (``app.cli.main.main``) on a memory with
  the fake embedder, on any arguments: exit 0, 1 or 2 with no traceback.

The markdown parser's own fuzz test belongs with the parser (its linear-time rewrite).
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fakes import FakeEmbedder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.shared.exceptions import MCPError
from mcp_helpers import connect, payload

from app.cli.main import main
from app.mcp.server import MemoryServer, create_server
from engine.core.config import CONFIG_JSON, CONFIG_TOML, ENV_PREFIX, SETTINGS, load_config
from engine.core.errors import ConfigError
from engine.embedding.base import DIMENSION
from engine.services.memory import Memory

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
# Text as hostile input comes: controls, surrogates, escapes, markup, FTS syntax.
HOSTILE_TEXT = st.lists(
    st.one_of(
        st.text(st.characters(codec=None), max_size=8),
        st.sampled_from(["\x1b[2J", "\x00", "\ud800", '"', "NEAR(", "[/b]", "../", "*", "\n"]),
    ),
    max_size=6,
).map("".join)
VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True),
        HOSTILE_TEXT,
        st.sampled_from(["hybrid", "keyword", "vector", "gotcha", "general", "5", "-1"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=12), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


# -- config ---------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, bool) else str(value).lower()


KEYS = st.one_of(
    st.sampled_from([s.name for s in SETTINGS]), st.text(string.ascii_letters + "_", max_size=8)
)
SCALARS = st.one_of(st.booleans(), st.integers(), st.text(max_size=20), st.floats(width=32))


@FUZZ
@given(
    toml=st.one_of(
        st.dictionaries(KEYS, SCALARS, max_size=5).map(
            lambda d: "".join(f"{k} = {_toml_value(v)}\n" for k, v in d.items())
        ),
        st.text(max_size=200),
    ),
    env=st.dictionaries(
        st.sampled_from([s.env for s in SETTINGS] + [ENV_PREFIX + "NOPE"]),
        st.text(max_size=20).filter(lambda t: "\x00" not in t),
        max_size=4,
    ),
)
def test_config_loader_gives_a_config_or_a_config_error(
    tmp_path: Path, toml: str, env: dict[str, str]
) -> None:
    (tmp_path / CONFIG_TOML).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / CONFIG_TOML).write_text(toml, encoding="utf-8", errors="surrogatepass")
    try:
        load_config(tmp_path, env=env)
    except ConfigError as exc:
        assert exc.message.strip()


@FUZZ
@given(data=st.dictionaries(st.text(max_size=20), VALUES, max_size=5) | VALUES)
def test_json_config_gives_a_config_or_a_config_error(tmp_path: Path, data: Any) -> None:
    (tmp_path / CONFIG_TOML).unlink(missing_ok=True)
    path = tmp_path / CONFIG_JSON
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        load_config(tmp_path, env={})
    except ConfigError as exc:
        assert exc.message.strip()


# -- MCP ------------------------------------------------------------------------------

TOOLS = ["memory_search", "memory_add", "memory_list", "memory_delete", "nope"]
ARG_NAMES = st.sampled_from(["query", "content", "limit", "category", "mode", "keywords", "id"])
STABLE_CODES = {
    "INVALID_INPUT",
    "CONTENT_TOO_LONG",
    "SECRET_DETECTED",
    "NOT_FOUND",
    "UNKNOWN_TOOL",
    "CONFIG_INVALID",
}


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryServer]:
    """One server for every example (a fresh memory per example would be slow)."""
    root = tmp_path_factory.mktemp("fuzz-mcp")
    (root / ".claude" / "knowledge").mkdir(parents=True)
    (root / ".claude" / "knowledge" / "a.md").write_text("# A\n\nsprockets\n")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add("Sprockets are greased every Friday", keywords=["sprocket"])
        server = create_server(memory, warm_up=False)
        yield server
        server.state.close()


@pytest.mark.slow
@FUZZ
@given(
    tool=st.sampled_from(TOOLS),
    arguments=st.dictionaries(ARG_NAMES | st.text(max_size=6), VALUES, max_size=4),
    # The SDK client cannot send a lone surrogate (tests/mcp/test_mcp_hostile_input.py can).
    uri=st.one_of(
        st.just("memory://a.md"),
        HOSTILE_TEXT.map(lambda t: "memory://" + t.encode("utf-8", "replace").decode()),
    ),
)
def test_any_mcp_arguments_get_an_answer(
    shared_server: MemoryServer, tool: str, arguments: dict[str, Any], uri: str
) -> None:
    async def session() -> None:
        async with connect(shared_server) as client:
            result = await client.call_tool(tool, arguments)
            data = payload(result)
            if result.is_error:
                assert data["code"] in STABLE_CODES, data
            try:
                await client.read_resource(uri)
            except MCPError as exc:  # a JSON-RPC error is an answer
                assert str(exc).strip()

    anyio.run(session)


# -- CLI ------------------------------------------------------------------------------

COMMANDS = ["search", "add", "list", "get", "delete", "stats", "stale", "promote", "index"]
OPTIONS = st.sampled_from(
    [
        *("--json", "--mode", "--limit", "-n", "--category", "--format", "-k", "--source"),
        *("--due", "--dry-run", "--", "hybrid", "keyword", "vector", "gotcha", "0", "xml"),
    ]
)


@pytest.fixture(scope="module")
def cli_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A project whose every ``Memory.open`` gets the fake embedder (no model loads)."""
    root = tmp_path_factory.mktemp("fuzz-cli")
    (root / ".git").mkdir()
    original = Memory.open.__func__  # type: ignore[attr-defined]

    def fake_open(cls: type[Memory], path: Path, **kwargs: Any) -> Memory:
        kwargs.setdefault("embedder", FakeEmbedder(dimension=DIMENSION))
        return original(cls, path, **kwargs)  # type: ignore[no-any-return]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Memory, "open", classmethod(fake_open))
        with Memory.open(root) as memory:
            memory.add("Sprockets are greased every Friday", keywords=["sprocket"])
        yield root


@pytest.mark.slow
@FUZZ
@given(
    command=st.sampled_from(COMMANDS),
    text=HOSTILE_TEXT.filter(lambda t: "\x00" not in t and t != "-"),  # "-": add reads stdin
    options=st.lists(
        st.one_of(OPTIONS, HOSTILE_TEXT.filter(lambda t: "\x00" not in t)), max_size=3
    ),
)
def test_any_cli_arguments_exit_cleanly(
    cli_project: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    text: str,
    options: list[str],
) -> None:
    args = [text, *options]
    argv = ["--project", str(cli_project), command, *args]
    if "-" in options:
        return
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: usage errors exit 2, --help 0
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (argv, err)
    assert "Traceback" not in err
    if "--json" not in args and "--format" not in args:
        assert not re.search("[\x1b\x07\x9b]", out), argv
