"""The fusion method a search uses when none is named is the configured default, wherever
it is left out (the configuration, the searcher, :func:`engine.search.fusion.fuse`)."""

from __future__ import annotations

import inspect

from bench.search_oracles import fuse
from engine.core.config import Config
from engine.search.fusion import DEFAULT_FUSION, FUSION_METHODS
from engine.search.searcher import Searcher


def test_every_default_fusion_is_the_configured_one() -> None:
    assert Config().fusion in FUSION_METHODS
    assert Config().fusion == DEFAULT_FUSION
    assert inspect.signature(fuse).parameters["method"].default == Config().fusion
    assert inspect.signature(Searcher).parameters["fusion"].default == Config().fusion
