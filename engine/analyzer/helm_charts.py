"""Helm charts: what each chart's ``Chart.yaml`` declares, one entry per chart.

A Helm chart is a folder holding a file named ``Chart.yaml`` (Helm's "Charts" guide, "The
Chart.yaml File"): the chart's ``name``, its own ``version`` (SemVer 2), the version of the
application it deploys (``appVersion``), the Kubernetes versions it supports
(``kubeVersion``), its ``description`` and ``type``, whether it is ``deprecated``, and
the charts it depends on (``dependencies``: ``name``, ``version``, ``repository``,
``condition``, ``alias``). A repository often holds many charts (``charts/<name>/``, or a
chart beside the program it deploys), and "which version does the chart install?" is
answered only there: neither the chart's README nor its templates spell the app version
out. Each chart gets a short entry of its own, cited to its ``Chart.yaml``.

The file is read with PyYAML's safe loader; one that is not a mapping naming the chart,
or that cannot be read, gives no entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from engine.analyzer.model import DiscoveryDraft

CHART_FILE = "Chart.yaml"
"""The one name Helm loads a chart's metadata from."""
MAX_CHARTS = 60
"""Charts given an entry of their own; a repository of more keeps the first, by path."""
MAX_CHART_BYTES = 100_000
MAX_DEPENDENCIES = 25
_FIELDS = (
    ("version", "chart version"),
    ("appVersion", "app version (the version of the application the chart deploys)"),
    ("kubeVersion", "Kubernetes versions supported"),
    ("type", "chart type"),
    ("apiVersion", "chart API version"),
)


def helm_chart_drafts(root: Path, files: Iterable[str]) -> list[DiscoveryDraft]:
    """One entry per Helm chart among ``files`` (posix paths under ``root``): its name,
    versions, description and dependencies, as its ``Chart.yaml`` declares them."""
    charts = sorted(rel for rel in files if rel.rpartition("/")[2] == CHART_FILE)
    drafts = []
    for rel in charts[:MAX_CHARTS]:
        chart = _chart(root / rel)
        if chart is not None:
            drafts.append(_draft(rel, chart))
    return drafts


def _chart(path: Path) -> dict[str, Any] | None:
    """The mapping ``path`` holds, where it names a chart; else ``None``."""
    try:
        if path.stat().st_size > MAX_CHART_BYTES:
            return None
        doc = yaml.safe_load(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, yaml.YAMLError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("name"), str):
        return None
    return doc


def _draft(rel: str, chart: dict[str, Any]) -> DiscoveryDraft:
    name = chart["name"]
    title = f"Helm chart {name}: versions and dependencies"
    lines = [title, f"The chart `{name}`, declared in {rel}."]
    if isinstance(description := chart.get("description"), str):
        lines.append(" ".join(description.split()))
    for key, label in _FIELDS:
        if isinstance(value := chart.get(key), (str, int, float)):
            lines.append(f"- {label}: {value}")
    if chart.get("deprecated") is True:
        lines.append("- deprecated: the chart is no longer maintained")
    dependencies = [_dependency(d) for d in _listed(chart.get("dependencies"))]
    dependencies = [d for d in dependencies if d]
    if dependencies:
        lines.append("Dependencies (charts it installs with it):")
        lines += [f"- {d}" for d in dependencies[:MAX_DEPENDENCIES]]
    keywords = ("helm", "chart", name, "version", "app version", "dependencies")
    return DiscoveryDraft("\n".join(lines), title, rel, keywords)


def _dependency(item: Any) -> str:
    """A dependency as one line: its name, version, repository and condition."""
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        return ""
    said = [item["name"]]
    said += [f"{item[key]}" for key in ("version",) if isinstance(item.get(key), str)]
    for key in ("repository", "condition", "alias"):
        if isinstance(item.get(key), str):
            said.append(f"({key} {item[key]})")
    return " ".join(said)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
