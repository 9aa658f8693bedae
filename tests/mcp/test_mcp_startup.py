"""Start-up: the server answers before the model has loaded, and keyword search works meanwhile."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import numpy as np
import numpy.typing as npt
from fakes import FakeEmbedder
from mcp_helpers import call, connect

from app.mcp.server import create_server
from engine.services.memory import Memory


class SlowEmbedder(FakeEmbedder):
    """A fake model whose loading blocks until the test opens ``gate``."""

    def __init__(self) -> None:
        super().__init__()
        self.loaded = False
        self.gate = threading.Event()
        self.load_started = threading.Event()
        self.load_ended = threading.Event()

    def load(self) -> None:
        self.load_started.set()
        try:
            assert self.gate.wait(30), "the test never let the model load"
            self.loaded = True
        finally:
            self.load_ended.set()

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.load()
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        self.load()
        return super().embed_query(text)


def _project_with_one_entry(root: Path) -> None:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add("Webhooks are verified with an HMAC signature", category="pattern")


async def test_tools_list_and_keyword_search_do_not_wait_for_the_model(tmp_path: Path) -> None:
    _project_with_one_entry(tmp_path)
    model = SlowEmbedder()
    memory = Memory.open(tmp_path, embedder=model)
    server = create_server(memory, warm_up=True)
    try:
        async with connect(server) as client:
            tools = await client.list_tools()
            # Answered while the model could not have loaded: the test has not opened the
            # gate yet, and a list that waited for the model would come only after load()
            # had given up.
            listed_before_the_model = not model.load_ended.is_set() and not model.loaded
            assert await anyio.to_thread.run_sync(model.load_started.wait, 10)
            early = await call(client, "memory_search", query="webhook HMAC signature")
            model.gate.set()
            assert await anyio.to_thread.run_sync(server.state.warmed.wait, 30)
            warm = await call(client, "memory_search", query="webhook HMAC signature")
    finally:
        model.gate.set()
        server.state.close()
        memory.close()
    assert len(tools.tools) == 5 and listed_before_the_model
    assert early["mode"] == "hybrid" and early["used"] == "keyword"
    assert any("loading" in w for w in early["warnings"])
    assert early["results"][0]["content"].startswith("Webhooks")
    assert warm["used"] == "hybrid" and warm["warnings"] == []


async def test_explicit_vector_search_waits_for_the_model(tmp_path: Path) -> None:
    _project_with_one_entry(tmp_path)
    model = SlowEmbedder()
    memory = Memory.open(tmp_path, embedder=model)
    server = create_server(memory, warm_up=False)
    answers: list[tuple[bool, dict[str, Any]]] = []
    try:
        async with connect(server) as client, anyio.create_task_group() as tasks:

            async def search() -> None:
                found = await call(
                    client, "memory_search", query="webhook signature", mode="vector"
                )
                answers.append((model.gate.is_set(), found))

            tasks.start_soon(search)
            # The model has begun to load, and cannot finish until the gate opens: a search
            # that waits for it has not answered yet.
            assert await anyio.to_thread.run_sync(model.load_started.wait, 10)
            answered_while_closed = bool(answers)
            model.gate.set()
    finally:
        model.gate.set()
        server.state.close()
        memory.close()
    assert not answered_while_closed, "the search answered while the model could not load"
    [(after_the_gate, found)] = answers
    assert after_the_gate, "the search answered before the model was let load"
    assert found["used"] == "vector" and found["count"] == 1


async def test_first_search_without_warm_up_starts_loading_in_background(tmp_path: Path) -> None:
    _project_with_one_entry(tmp_path)
    model = SlowEmbedder()
    memory = Memory.open(tmp_path, embedder=model)
    server = create_server(memory, warm_up=False)
    try:
        async with connect(server) as client:
            first = await call(client, "memory_search", query="HMAC")
            assert await anyio.to_thread.run_sync(model.load_started.wait, 10)
            model.gate.set()
            assert await anyio.to_thread.run_sync(server.state.warmed.wait, 30)
            later = await call(client, "memory_search", query="HMAC webhooks")
    finally:
        model.gate.set()
        server.state.close()
        memory.close()
    assert first["used"] == "keyword" and later["used"] == "hybrid"


def test_building_the_server_imports_no_heavy_module(tmp_path: Path) -> None:
    code = (
        "import sys; from app.mcp_server import create_server; "
        f"create_server({str(tmp_path)!r}); "
        "heavy = {'torch', 'sentence_transformers', 'lancedb', 'pyarrow', 'numpy'}; "
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


async def test_an_off_topic_query_gets_nothing_while_the_model_loads(tmp_path: Path) -> None:
    """The keyword stand-in goes through the relevance gate (issue 45, item 10): a query
    about something else gets nothing in the first seconds too, one the memory answers
    still gets its answer."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as seeded:
        seeded.add("Webhooks are verified with an HMAC signature", category="pattern")
        seeded.add("The capital letters of a constant name are kept as written", category="pattern")
    model = SlowEmbedder()
    memory = Memory.open(tmp_path, embedder=model)
    server = create_server(memory, warm_up=True)
    try:
        async with connect(server) as client:
            assert await anyio.to_thread.run_sync(model.load_started.wait, 10)
            off_topic = await call(client, "memory_search", query="capital of Australia")
            on_topic = await call(client, "memory_search", query="webhook HMAC signature")
    finally:
        model.gate.set()
        server.state.close()
        memory.close()
    assert off_topic["used"] == "keyword" and off_topic["results"] == []
    assert on_topic["used"] == "keyword"
    assert on_topic["results"][0]["content"].startswith("Webhooks")
