"""LanceDB is imported without the REST namespace client's API classes, which a local
store never uses, and the client's package is still whole for any caller that asks."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import fresh_python


def run_python(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter (imports are process-wide); its last line of
    stdout is JSON."""
    done = fresh_python(code)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(result, dict)
    return result


def test_a_write_and_a_vector_search_leave_the_rest_client_unimported(tmp_path: Path) -> None:
    result = run_python(
        f"""
        import json, sys
        from fakes import FakeEmbedder
        from engine.services.entries import NewEntry
        from engine.services.memory import Memory
        with Memory.open({str(tmp_path)!r}, embedder=FakeEmbedder()) as memory:
            memory.add_many([NewEntry("alpha entry about lancedb"), NewEntry("beta", "gotcha")])
            found = memory.search("alpha", mode="vector").results
            memory.compact()
        apis = sorted(m for m in sys.modules if m.startswith("lance_namespace_urllib3_client.api"))
        print(json.dumps({{"lancedb": "lancedb" in sys.modules, "apis": apis,
                           "found": len(found)}}))
        """
    )
    assert result["found"], "the vector search read the store"
    assert result == {"lancedb": True, "apis": [], "found": result["found"]}


def test_the_rest_client_is_whole_for_whoever_asks() -> None:
    result = run_python(
        """
        import json, sys
        from engine.storage.lancedb_import import lancedb, rest_client_loaded
        lancedb()
        before = rest_client_loaded()
        import lance_namespace_urllib3_client as client
        from lance_namespace_urllib3_client import ApiClient, TableApi
        from lance_namespace_urllib3_client.models import CreateNamespaceRequest
        print(json.dumps({"before": before, "after": rest_client_loaded(),
                          "version": client.__version__, "api": TableApi.__name__,
                          "client": ApiClient.__module__, "model": CreateNamespaceRequest.__name__,
                          "same": sys.modules["lance_namespace_urllib3_client"] is client}))
        """
    )
    assert result == {
        "before": False,
        "after": True,
        "version": result["version"],
        "api": "TableApi",
        "client": "lance_namespace_urllib3_client.api_client",
        "model": "CreateNamespaceRequest",
        "same": True,
    }
    assert isinstance(result["version"], str) and result["version"]


def test_nothing_is_deferred_once_the_client_is_imported() -> None:
    result = run_python(
        """
        import json
        import lance_namespace_urllib3_client
        from engine.storage.lancedb_import import defer_rest_client, lancedb, rest_client_loaded
        print(json.dumps({"deferred": defer_rest_client(), "loaded": rest_client_loaded(),
                          "lancedb": lancedb().__name__}))
        """
    )
    assert result == {"deferred": False, "loaded": True, "lancedb": "lancedb"}


def test_a_thread_asking_while_another_imports_gets_the_whole_module() -> None:
    """While one thread imports LanceDB, another that asks for it waits for that import
    to finish: it never gets the half-initialised module (no ``connect`` yet)."""
    result = run_python(
        """
        import json, sys, threading
        from engine.storage.lancedb_import import lancedb
        worker = threading.Thread(target=lancedb)
        worker.start()
        while "lancedb" not in sys.modules:  # the other thread's import has begun
            pass
        module = lancedb()
        whole = hasattr(module, "connect") and hasattr(module, "Session")
        worker.join()
        print(json.dumps({"whole": whole, "same": module is sys.modules["lancedb"]}))
        """
    )
    assert result == {"whole": True, "same": True}


def test_the_models_lancedb_defines_are_built_on_first_use_and_validate_then() -> None:
    result = run_python(
        """
        import json
        import pydantic
        from engine.storage.lancedb_import import lancedb
        lancedb()
        from lance_namespace import CreateNamespaceRequest
        deferred = not CreateNamespaceRequest.__pydantic_complete__
        made = CreateNamespaceRequest(id=["a", "b"]).id
        try:
            CreateNamespaceRequest(id=5)
            refused = False
        except pydantic.ValidationError:
            refused = True

        class Later(pydantic.BaseModel):  # created after the import: pydantic's default
            n: int

        print(json.dumps({"deferred": deferred, "made": made, "refused": refused,
                          "later": Later.__pydantic_complete__,
                          "config": "defer_build" in pydantic.BaseModel.model_config}))
        """
    )
    assert result == {
        "deferred": True,
        "made": ["a", "b"],
        "refused": True,
        "later": True,
        "config": False,
    }


def test_lancedb_marks_its_overrides_as_on_python_3_12_and_overrides_is_restored() -> None:
    result = run_python(
        """
        import json, sys
        from engine.storage.lancedb_import import lancedb
        lancedb()
        import lancedb.db as db
        import overrides

        marked = db.LanceDBConnection.open_table.__override__
        try:  # the package's own check again, for whoever uses it after the import
            class Base:
                def run(self): ...
            class Child(Base):
                @overrides.override
                def walk(self): ...
            checked = False
        except TypeError:
            checked = True
        print(json.dumps({"marked": marked, "checked": checked,
                          "restored": overrides.override.__module__ == "overrides.overrides"}))
        """
    )
    assert result == {"marked": True, "checked": True, "restored": True}


def test_the_overrides_check_is_skipped_during_the_import() -> None:
    """What makes it cheaper: no disassembly of LanceDB's modules while it is imported."""
    result = run_python(
        """
        import dis, json
        calls = []
        original = dis.get_instructions
        dis.get_instructions = lambda *a, **k: calls.append(1) or original(*a, **k)
        from engine.storage.lancedb_import import lancedb
        lancedb()
        print(json.dumps({"disassembled": len(calls)}))
        """
    )
    assert result == {"disassembled": 0}


def test_substrait_waits_for_its_first_lookup_and_is_whole_then(tmp_path: Path) -> None:
    result = run_python(
        f"""
        import json, sys
        from fakes import FakeEmbedder
        from engine.services.entries import NewEntry
        from engine.services.memory import Memory
        with Memory.open({str(tmp_path)!r}, embedder=FakeEmbedder()) as memory:
            memory.add_many([NewEntry("alpha entry about lancedb"), NewEntry("beta", "gotcha")])
            found = len(memory.search("alpha", mode="vector").results)
        loaded_by_writes = "pyarrow._substrait" in sys.modules
        import pyarrow
        import pyarrow.substrait as substrait
        name = substrait.BoundExpressions.__name__
        same = pyarrow.substrait is substrait is sys.modules["pyarrow.substrait"]
        print(json.dumps({{"found": found, "loaded_by_writes": loaded_by_writes, "name": name,
                          "same": same, "loaded": "pyarrow._substrait" in sys.modules}}))
        """
    )
    assert result == {
        "found": result["found"],
        "loaded_by_writes": False,
        "name": "BoundExpressions",
        "same": True,
        "loaded": True,
    }
    assert result["found"]
