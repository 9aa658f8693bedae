"""Importing LanceDB without its REST namespace client until something asks for it.

``import lancedb`` imports ``lance_namespace``, whose interface re-exports the request and
response models of ``lance_namespace_urllib3_client``, the OpenAPI client of the Lance REST
namespace. Importing any module of that package first runs the package's ``__init__``,
which imports all nine of its API classes (their pydantic ``validate_call`` methods), the
``ApiClient`` and urllib3: about half of the time ``import lancedb`` takes, for a client a
local or S3 store never uses (LanceDB reaches object storage through ``storage_options``,
not through a namespace). Measured in bench/RESULTS.md, issue 38 (index1s).

:func:`lancedb` imports LanceDB with that package registered in ``sys.modules`` before its
``__init__`` has run: its sub-packages (``models``, which ``lance_namespace`` needs) import
as usual from its folder, and the first lookup of any other name on the package (its
``ApiClient``, an API class, ``__version__``) runs the package's own ``__init__`` then, on
the same module object, so every caller still gets the complete package. Nothing of the
dependency is changed on disk or copied.

``pyarrow.dataset`` imports ``pyarrow.substrait`` (and its extension, the Substrait
query plans) only to recognise a Substrait filter given to a dataset scan, which LanceDB's
writes never pass; it waits the same way, registered on ``pyarrow`` too, and loads on the
first lookup of one of its names.

The pydantic models that import defines (the 146 request and response models that
``lance_namespace`` re-exports, LanceDB's embedding-function configurations) are built
with pydantic's ``defer_build``: a model's validator and serializer are made on its first
use (pydantic's documented option), not for every model at import, which a local store
never validates. Only the classes created during that import are affected; pydantic's
default is restored after it.

On Python 3.11, LanceDB marks its overriding methods with the ``overrides`` package's
``@override``, which disassembles the module's code and compares signatures for each of
them as the class is created (70 ms of the import); on 3.12 and later LanceDB uses
``typing.override``, which only marks the method. During the import the decorator LanceDB
gets is that marker (``__override__ = True``) on every version; ``overrides`` is restored
after it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import threading
import types
from collections.abc import Iterator
from importlib.machinery import ModuleSpec
from typing import Any

REST_CLIENT = "lance_namespace_urllib3_client"
"""The package whose ``__init__`` waits for its first lookup."""
SUBSTRAIT = "pyarrow.substrait"
"""The module (and its extension) that waits for its first lookup."""

_lock = threading.RLock()
_loading: set[str] = set()


class _Deferred(types.ModuleType):
    """A package whose ``__init__`` runs on the first lookup of a name it lacks."""

    def __getattr__(self, name: str) -> Any:  # only called for names not (yet) set
        with _lock:
            if type(self) is _Deferred:
                if self.__name__ in _loading:  # a lookup by the ``__init__`` running
                    raise AttributeError(f"partially initialised module {self.__name__!r}")
                _loading.add(self.__name__)
                try:
                    spec = self.__spec__
                    assert spec is not None and spec.loader is not None
                    spec.loader.exec_module(self)
                except BaseException:
                    sys.modules.pop(self.__name__, None)  # the next import starts afresh
                    raise
                finally:
                    _loading.discard(self.__name__)
                object.__setattr__(self, "__class__", types.ModuleType)  # a plain module now
        return getattr(self, name)


def defer_rest_client() -> bool:
    """Register the REST client's package without running its ``__init__`` (see the
    module's docstring); False when it is imported already or not installed."""
    return _defer(REST_CLIENT, package=True)


def defer_substrait() -> bool:
    """Register ``pyarrow.substrait`` without running it (see the module's docstring);
    False when it is imported already or not installed."""
    return _defer(SUBSTRAIT, package=False)


def _defer(name: str, *, package: bool) -> bool:
    """Register module ``name`` (``package``: a package) in ``sys.modules``, and on its
    parent package, without running its code until its first lookup."""
    with _lock:
        if name in sys.modules:
            return False
        try:
            spec: ModuleSpec | None = importlib.util.find_spec(name)  # (imports its parent)
        except ImportError:
            return False
        if spec is None or spec.loader is None:
            return False
        if package != (spec.submodule_search_locations is not None):
            return False
        module = importlib.util.module_from_spec(spec)
        module.__class__ = _Deferred
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent:  # as an import would: ``pyarrow.substrait`` is an attribute of pyarrow
            setattr(sys.modules[parent], child, module)
        return True


def rest_client_loaded() -> bool:
    """Whether the REST client's package ``__init__`` (its API classes) has run."""
    module = sys.modules.get(REST_CLIENT)
    return module is not None and type(module) is not _Deferred


@contextlib.contextmanager
def models_built_on_first_use() -> Iterator[None]:
    """Within the block, pydantic models are created with ``defer_build`` (see the module's
    docstring); pydantic's default is restored after it."""
    try:
        from pydantic import BaseModel
    except ImportError:  # (LanceDB needs pydantic; nothing to defer without it)
        yield
        return
    config = BaseModel.model_config
    with _lock:
        had, before = "defer_build" in config, config.get("defer_build", False)
        config["defer_build"] = True
    try:
        yield
    finally:
        with _lock:
            if had:
                config["defer_build"] = before
            else:
                config.pop("defer_build", None)


def _mark_override(method: Any = None, **_checks: Any) -> Any:
    """``typing.override``'s behaviour (mark the method, nothing else), in the call forms
    of ``overrides.override`` (bare, or with its check options)."""
    if method is None:
        return _mark_override
    with contextlib.suppress(AttributeError, TypeError):  # (as typing.override does)
        method.__override__ = True
    return method


@contextlib.contextmanager
def overrides_only_marked() -> Iterator[None]:
    """Within the block, ``overrides.override`` only marks (see the module's docstring);
    the package's own decorator is restored after it."""
    try:
        import overrides
    except ImportError:  # (Python 3.12+: LanceDB uses typing.override)
        yield
        return
    with _lock:
        original = overrides.override
        overrides.override = _mark_override
    try:
        yield
    finally:
        with _lock:
            overrides.override = original


def lancedb() -> Any:
    """The ``lancedb`` module, imported (once) without the REST namespace client, with its
    pydantic models built on first use and its ``@override`` marks only marking."""
    if "lancedb" not in sys.modules:
        defer_rest_client()
        defer_substrait()
        with models_built_on_first_use(), overrides_only_marked():
            import lancedb as module  # (waits for another thread's import of it to finish)

            return module
    import lancedb as module

    return module
