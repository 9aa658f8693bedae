"""What a .NET repository's own files say about its build: the SDK its ``global.json``
selects, and the package versions NuGet's Central Package Management keeps in
``Directory.Packages.props`` (the projects' ``PackageReference`` items name none).
``dotnet_argu/`` holds fsprojects/Argu's files (8dcad5b): its solution (``Argu.slnx``, the
other projects it lists are absent here), ``global.json``, ``Directory.Packages.props`` and
``src/Argu/Argu.fsproj``."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.analyzer.manifest_sections import manifest_sections
from engine.analyzer.project_files import project_file_drafts

ARGU = Path(__file__).parent / "dotnet_argu"


def test_global_json_names_the_sdk_the_build_needs(tmp_path: Path) -> None:
    shutil.copytree(ARGU, tmp_path, dirs_exist_ok=True)
    build = next(
        d
        for d in project_file_drafts(tmp_path, "Argu")
        if d.section_title.startswith("How to build")
    )
    assert build.file_path == "global.json"
    assert "version: 10.0.100" in build.content and "rollForward: minor" in build.content


def test_central_package_versions_fill_the_package_references(tmp_path: Path) -> None:
    shutil.copytree(ARGU, tmp_path, dirs_exist_ok=True)
    sections = {(file, heading): items for _, file, heading, items in manifest_sections(tmp_path)}
    heading = "Package references (versions in Directory.Packages.props)"
    assert sections[("src/Argu/Argu.fsproj", heading)] == [
        "DotNet.ReproducibleBuilds 2.0.2",
        "FSharp.Core 6.0.0",
        "System.Configuration.ConfigurationManager 4.4.0",
    ]
