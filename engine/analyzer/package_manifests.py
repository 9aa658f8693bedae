"""Packages of configuration-management and deployment ecosystems: what each package's
metadata file declares, one entry per package.

"Which version is this?", "which app version does the chart deploy?" and "which Puppet
releases does it support?" are answered by a package's metadata file only, which is
neither documentation nor code. Each format is read as its ecosystem specifies it:

* a Helm chart's ``Chart.yaml`` (Helm's "Charts" guide, "The Chart.yaml File"): the
  chart's ``name``, its own ``version``, the version of the application it deploys
  (``appVersion``), the Kubernetes versions it supports (``kubeVersion``), its
  ``description``, ``type``, ``deprecated`` and the charts it depends on
  (``dependencies``: ``name``, ``version``, ``repository``, ``condition``, ``alias``). A
  repository often holds many charts (``charts/<name>/``), each an entry;
* an Ansible collection's ``galaxy.yml`` (Ansible's "Collection metadata structure"):
  ``namespace``, ``name`` and ``version`` (all required), ``description`` and the
  collections it depends on (``dependencies``: a mapping of name to version range);
* a Puppet module's ``metadata.json`` (Puppet's "Module metadata"): ``name``
  (``author-module``), ``version``, ``author``, ``license``, ``source`` and ``summary``
  (all required), ``dependencies`` (``name``, ``version_requirement``), ``requirements``
  (the Puppet releases it runs on) and ``operatingsystem_support``.

Each file is read with PyYAML's safe loader or :mod:`json`; one that does not hold the
fields its format requires, or that cannot be read, gives no entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine.analyzer.manifest_files import read_json, read_yaml
from engine.analyzer.model import DiscoveryDraft

MAX_PACKAGES = 60
"""Packages given an entry of their own; a repository of more keeps the first, by path."""
MAX_ITEMS = 25
_CHART_FIELDS = (
    ("version", "chart version"),
    ("appVersion", "app version (the version of the application the chart deploys)"),
    ("kubeVersion", "Kubernetes versions supported"),
    ("type", "chart type"),
    ("apiVersion", "chart API version"),
)
_PUPPET_NAME = ("-", "/")
"""A Puppet module's full name joins its author and its name: ``puppetlabs-stdlib``."""
_PUPPET_REQUIRED = ("author", "license", "summary", "source")
"""What Puppet's module metadata requires besides ``name``, ``version`` and
``dependencies``: a ``metadata.json`` of another tool lacks them."""


def package_drafts(root: Path, files: Iterable[str]) -> list[DiscoveryDraft]:
    """One entry per package among ``files`` (posix paths under ``root``) whose metadata
    file reads as its format requires: Helm charts, Ansible collections, Puppet modules."""
    readers: dict[str, tuple[Callable[[Path], Any], Callable[[str, Any], DiscoveryDraft | None]]]
    readers = {
        "Chart.yaml": (read_yaml, _chart),
        "galaxy.yml": (read_yaml, _collection),
        "metadata.json": (read_json, _puppet_module),
    }
    drafts = []
    for rel in sorted(rel for rel in files if rel.rpartition("/")[2] in readers)[:MAX_PACKAGES]:
        read, draft = readers[rel.rpartition("/")[2]]
        doc = read(root / rel)
        if isinstance(doc, dict) and (found := draft(rel, doc)) is not None:
            drafts.append(found)
    return drafts


def _chart(rel: str, chart: dict[str, Any]) -> DiscoveryDraft | None:
    name = chart.get("name")
    if not isinstance(name, str):
        return None
    title = f"Helm chart {name}: versions and dependencies"
    lines = [title, f"The chart `{name}`, declared in {rel}."]
    lines += _prose(chart.get("description"))
    for key, label in _CHART_FIELDS:
        if _scalar(value := chart.get(key)):
            lines.append(f"- {label}: {value}")
    if chart.get("deprecated") is True:
        lines.append("- deprecated: the chart is no longer maintained")
    depends = [_chart_dependency(d) for d in _listed(chart.get("dependencies"))]
    lines += _section("Dependencies (charts it installs with it):", depends)
    return _draft(title, lines, rel, ("helm", "chart", name, "version", "app version"))


def _chart_dependency(item: Any) -> str:
    """A chart's dependency as one line: its name, version, repository and condition."""
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        return ""
    said = [item["name"]] + ([item["version"]] if isinstance(item.get("version"), str) else [])
    for key in ("repository", "condition", "alias"):
        if isinstance(item.get(key), str):
            said.append(f"({key} {item[key]})")
    return " ".join(said)


def _collection(rel: str, doc: dict[str, Any]) -> DiscoveryDraft | None:
    namespace, name, version = (doc.get(k) for k in ("namespace", "name", "version"))
    if not (isinstance(namespace, str) and isinstance(name, str) and _scalar(version)):
        return None
    full = f"{namespace}.{name}"
    title = f"Ansible collection {full}: version and dependencies"
    lines = [title, f"The collection `{full}`, declared in {rel}."]
    lines += _prose(doc.get("description"))
    lines.append(f"- collection version: {version}")
    depends = doc.get("dependencies")
    pairs = depends.items() if isinstance(depends, dict) else []
    lines += _section("Dependencies (collections):", [f"{k} {v}" for k, v in pairs])
    return _draft(title, lines, rel, ("ansible", "collection", full, "version", "galaxy"))


def _puppet_module(rel: str, doc: dict[str, Any]) -> DiscoveryDraft | None:
    name, version = doc.get("name"), doc.get("version")
    if not (isinstance(name, str) and any(s in name for s in _PUPPET_NAME) and _scalar(version)):
        return None
    required = (isinstance(doc.get(key), str) for key in _PUPPET_REQUIRED)
    if not (all(required) and isinstance(doc.get("dependencies"), list)):
        return None
    title = f"Puppet module {name}: version, requirements and supported systems"
    lines = [title, f"The module `{name}`, declared in {rel}.", *_prose(doc.get("summary"))]
    lines.append(f"- module version: {version}")
    lines += _section("Requirements (the Puppet releases it runs on):", _requirements(doc))
    systems = [_system(s) for s in _listed(doc.get("operatingsystem_support"))]
    lines += _section("Supported operating systems:", systems)
    depends = [_requirement(d) for d in _listed(doc.get("dependencies"))]
    lines += _section("Dependencies (modules):", depends)
    return _draft(title, lines, rel, ("puppet", "module", name, "version", "requirements"))


def _requirements(doc: dict[str, Any]) -> list[str]:
    return [_requirement(r) for r in _listed(doc.get("requirements"))]


def _requirement(item: Any) -> str:
    """``name version_requirement`` of a Puppet dependency or requirement."""
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        return ""
    wanted = item.get("version_requirement")
    return f"{item['name']} {wanted}" if isinstance(wanted, str) else item["name"]


def _system(item: Any) -> str:
    """An operating system with the releases a Puppet module supports on it."""
    system = item.get("operatingsystem") if isinstance(item, dict) else None
    if not isinstance(system, str):
        return ""
    releases = [str(r) for r in _listed(item.get("operatingsystemrelease")) if _scalar(r)]
    return system + (f" {', '.join(releases)}" if releases else "")


def _draft(title: str, lines: list[str], rel: str, keywords: tuple[str, ...]) -> DiscoveryDraft:
    return DiscoveryDraft("\n".join(lines), title, rel, keywords)


def _section(heading: str, items: list[str]) -> list[str]:
    shown = [item for item in items if item][:MAX_ITEMS]
    return [heading, *(f"- {item}" for item in shown)] if shown else []


def _prose(value: Any) -> list[str]:
    return [" ".join(value.split())] if isinstance(value, str) and value.strip() else []


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
