"""What the manifests of Dart, PHP, .NET and Gradle projects say a newcomer asks first: which SDK
or runtime release a package needs, what it depends on, and the scripts it declares.

Each manifest is read by its format's own reference, never run: Dart's ``pubspec.yaml``
(pub's "The pubspec file") through PyYAML's safe loader, PHP's ``composer.json``
(Composer's schema) through :mod:`json`, and the .NET projects a root solution lists
(MSBuild's project format) through defusedxml, Gradle's version catalog through
:mod:`tomllib`. Each section is ``(topic, file, heading,
items)``: :mod:`engine.analyzer.project_files` puts it in the build entry or the
dependencies entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from defusedxml import ElementTree

from engine.analyzer.manifest_files import (
    one_line,
    read_json,
    read_text,
    read_toml,
    read_yaml,
    sub_table,
)
from engine.analyzer.package_requirements import package_requirements
from engine.analyzer.pieces import identifier_words
from engine.analyzer.testing_names import is_test_path

Topic = Literal["build", "dependencies"]
Section = tuple[Topic, str, str, list[str]]

MAX_VALUE_CHARS = 160
_SLN_PROJECT = re.compile(r'^Project\("\{[^}]*\}"\)\s*=\s*"[^"]*"\s*,\s*"([^"]+)"', re.MULTILINE)
_SLNX_PROJECT = re.compile(r'<Project\s+Path="([^"]+)"')
_PROJECT_FILE = re.compile(r"\.(?:cs|fs|vb)proj$", re.IGNORECASE)
CENTRAL_VERSIONS = "Directory.Packages.props"
"""NuGet's Central Package Management file: the versions of the packages the projects below
it reference ("Central Package Management" in NuGet's documentation)."""
_APPLICATION = frozenset({"exe", "winexe"})
"""MSBuild's ``OutputType`` of a program (a benchmark, a sample app), not a library."""


def manifest_sections(root: Path) -> list[Section]:
    """The sections the root ``pubspec.yaml``, ``composer.json``, ``global.json``, the .NET
    projects of the root solution (their versions from ``Directory.Packages.props`` where
    NuGet manages them centrally), Gradle's version catalog and the Julia, R, Haskell and
    Nim manifests (:mod:`engine.analyzer.package_requirements`) give the build and
    dependencies entries of the project at ``root``."""
    required: list[Section] = [("dependencies", *found) for found in package_requirements(root)]
    return [
        *_pubspec(root), *_composer(root), *_global_json(root), *_dotnet(root),
        *_gradle_catalog(root), *required,
    ]  # fmt: skip


def _pubspec(root: Path) -> Iterator[Section]:
    """The SDKs a Dart or Flutter package asks for and the packages it depends on, as
    pub's reference lays them out: the ``environment`` map (``sdk``, ``flutter``) and the
    ``dependencies`` and ``dev_dependencies`` maps, each a package's version constraint or
    its source (``sdk``, ``path``, ``git``, ``hosted``)."""
    doc = read_yaml(root / "pubspec.yaml")
    if not isinstance(doc, dict):
        return
    environment = [f"{k} {_short(v)}" for k, v in sub_table(doc, "environment").items()]
    yield (
        "dependencies",
        "pubspec.yaml",
        "Dart SDK and Flutter versions (`environment`)",
        environment,
    )
    for key, heading in (
        ("dependencies", "Runtime dependencies"),
        ("dev_dependencies", "Development dependencies"),
    ):
        items = [_dart_dependency(k, v) for k, v in sub_table(doc, key).items()]
        yield ("dependencies", "pubspec.yaml", heading, items)


def _dart_dependency(name: str, source: Any) -> str:
    """``name`` and what the pubspec says of it: a constraint (``^1.3.0``), its source
    (``sdk: flutter``, ``path: ../mobx``) or nothing (``any``)."""
    if source is None:
        return f"{name} any"
    if isinstance(source, dict):
        said = ", ".join(f"{k}: {_short(v)}" for k, v in source.items())
        return f"{name} ({said})"
    return f"{name} {_short(source)}"


def _composer(root: Path) -> Iterator[Section]:
    """A PHP package's ``composer.json`` as Composer's schema lays it out: ``require``
    (the PHP release as the ``php`` package, extensions as ``ext-*``, then the packages),
    ``require-dev`` and ``scripts`` (run with ``composer run-script NAME``)."""
    doc = read_json(root / "composer.json")
    if not isinstance(doc, dict):
        return
    scripts = [f"composer {k} -> {_short(v)}" for k, v in sub_table(doc, "scripts").items()]
    yield ("build", "composer.json", "Composer scripts", scripts)
    require = {str(k): v for k, v in sub_table(doc, "require").items()}
    platform = [
        f"{k} {_short(v)}" for k, v in require.items() if k == "php" or k.startswith("ext-")
    ]
    yield ("dependencies", "composer.json", "PHP version and extensions (`require`)", platform)
    packages = [f"{k} {_short(v)}" for k, v in require.items() if "/" in k]
    yield ("dependencies", "composer.json", "Runtime dependencies", packages)
    dev = [f"{k} {_short(v)}" for k, v in sub_table(doc, "require-dev").items()]
    yield ("dependencies", "composer.json", "Development dependencies", dev)


def _dotnet(root: Path) -> Iterator[Section]:
    """The target frameworks and package references of each library a root solution
    (``.sln``, ``.slnx``) lists, or of the project files at the root: a test project
    (by its path, or ``IsTestProject``, which ``Microsoft.NET.Test.Sdk`` sets) and a
    program (``OutputType`` ``Exe``) are left out; what a package ships is its libraries."""
    for rel in _dotnet_projects(root):
        project = _xml(root / rel)
        if project is None or is_test_path(rel):
            continue
        properties = {_local(e.tag): (e.text or "").strip() for e in project.iter()}
        own = {
            e.get("Include") or "": e.get("Version") or e.get("VersionOverride")
            for e in project.iter()
            if _local(e.tag) == "PackageReference"
        }
        central = _central_versions(root, rel)
        references = {name: version or central.get(name) for name, version in own.items()}
        if (
            properties.get("IsTestProject", "").lower() == "true"
            or "Microsoft.NET.Test.Sdk" in references
        ):
            continue
        if properties.get("OutputType", "").lower() in _APPLICATION:
            continue
        frameworks = properties.get("TargetFrameworks") or properties.get("TargetFramework") or ""
        targets = [f for f in frameworks.split(";") if f.strip()]
        yield ("dependencies", rel, "Target frameworks (`TargetFramework`)", targets)
        packages = [
            f"{name} {version}" if version else name for name, version in references.items() if name
        ]
        centrally = any(version is None and name in central for name, version in own.items())
        heading = f"Package references (versions in {CENTRAL_VERSIONS})" if centrally else ""
        yield ("dependencies", rel, heading or "Package references", packages)


def _central_versions(root: Path, rel: str) -> dict[str, str]:
    """The package versions NuGet's Central Package Management gives the project ``rel``:
    the ``PackageVersion`` items of the ``Directory.Packages.props`` nearest above it (its
    folder, then each folder up to the root, as NuGet looks it up), a ``PackageReference``
    then naming no ``Version`` of its own."""
    folder = (root / rel).parent
    while True:
        props = _xml(folder / CENTRAL_VERSIONS)
        if props is not None:
            return {
                e.get("Include") or "": e.get("Version") or ""
                for e in props.iter()
                if _local(e.tag) == "PackageVersion"
            }
        if folder == root or root not in folder.parents:
            return {}
        folder = folder.parent


def _global_json(root: Path) -> Iterator[Section]:
    """The .NET SDK the root's ``global.json`` selects (its ``sdk`` object: ``version``,
    ``rollForward``, ``allowPrerelease``, as the .NET SDK's "global.json overview" lays
    it out) and the MSBuild project SDKs it pins (``msbuild-sdks``)."""
    doc = read_json(root / "global.json")
    if not isinstance(doc, dict):
        return
    sdk = doc.get("sdk")
    if isinstance(sdk, dict):
        items = [f"{key}: {_short(value)}" for key, value in sdk.items() if _scalar(value)]
        yield ("build", "global.json", ".NET SDK (`sdk` in global.json)", items)
    pinned = doc.get("msbuild-sdks")
    if isinstance(pinned, dict):
        items = [f"{name} {_short(version)}" for name, version in pinned.items()]
        yield ("build", "global.json", "MSBuild project SDKs (`msbuild-sdks`)", items)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


def _gradle_catalog(root: Path) -> Iterator[Section]:
    """Gradle's default version catalog, ``gradle/libs.versions.toml`` (Gradle's "Version
    Catalogs"): its ``[versions]`` (an Android build's ``minSdk`` lives there, each name
    spelled out in words: ``androidMinSdk`` is one word to the keyword index), the
    ``[libraries]`` with their version and the ``[plugins]``."""
    rel = "gradle/libs.versions.toml"
    doc = read_toml(root / rel)
    versions = sub_table(doc, "versions")
    named = []
    for key, value in versions.items():
        spelled = identifier_words(key.replace("-", "_"))
        named.append(f"{key} = {_short(value)}" + (f" ({spelled})" if spelled else ""))
    yield ("dependencies", rel, "Versions (`[versions]`)", named)
    for table, heading in (("libraries", "Libraries"), ("plugins", "Plugins")):
        items = [_catalog_item(item, versions) for item in sub_table(doc, table).values()]
        yield ("dependencies", rel, f"{heading} (`[{table}]`)", [i for i in items if i])


def _catalog_item(item: Any, versions: dict[str, Any]) -> str:
    """A catalog's library or plugin: ``group:name:version``, its ``module``, ``id`` or
    ``group`` and ``name``, and its ``version`` or the ``version.ref`` it names."""
    if isinstance(item, str):
        return item
    if not isinstance(item, dict):
        return ""
    coordinates = item.get("module") or item.get("id")
    if coordinates is None and "group" in item:
        coordinates = f"{item['group']}:{item.get('name', '')}"
    version = item.get("version")
    if isinstance(version, dict) and "ref" in version:
        version = versions.get(version["ref"], version["ref"])
    return f"{coordinates} {_short(version)}" if version is not None else str(coordinates or "")


def _dotnet_projects(root: Path) -> list[str]:
    """The project files the root's solutions list (posix paths), else the root's own."""
    found: list[str] = []
    for solution in sorted([*root.glob("*.sln"), *root.glob("*.slnx")]):
        text = read_text(solution) or ""
        for path in [*_SLN_PROJECT.findall(text), *_SLNX_PROJECT.findall(text)]:
            rel = path.replace("\\", "/").removeprefix("./")
            if _PROJECT_FILE.search(rel) and rel not in found:
                found.append(rel)
    if not found:
        found = sorted(
            p.name for p in root.iterdir() if _PROJECT_FILE.search(p.name) and p.is_file()
        )
    return found


def _xml(path: Path) -> Any:
    text = read_text(path)
    if text is None:
        return None
    try:
        return ElementTree.fromstring(text.lstrip("\ufeff"))
    except Exception:  # ParseError, or defusedxml refusing entities: declares nothing
        return None


def _local(tag: Any) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def _short(value: Any) -> str:
    return one_line(value, MAX_VALUE_CHARS)
