"""Manifests are read through the path guard (``engine.analyzer.manifest_files``): a
manifest linked to a file elsewhere on the machine, or too large, says nothing."""

from __future__ import annotations

from pathlib import Path

from project_files import write

from engine.analyzer import analyze, discovery_drafts
from engine.analyzer.manifest_files import MAX_FILE_BYTES, read_text, read_yaml

CARGO = '[package]\nname = "frob"\n\n[features]\n# Keep map keys in order.\nordered = []\n'


def test_a_manifest_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    outside = write(tmp_path / "elsewhere", {"Cargo.toml": CARGO}) / "Cargo.toml"
    root = write(tmp_path / "project", {"src/lib.rs": "pub fn frob() {}\n"})
    (root / "Cargo.toml").symlink_to(outside)
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "ci.yml").symlink_to(outside)

    titles = [d.section_title for d in discovery_drafts(analyze(root))]

    assert read_text(root / "Cargo.toml") is None
    assert not [t for t in titles if "Cargo feature" in t or "Continuous integration" in t]
    (root / "Cargo.toml").unlink()
    (root / "Cargo.toml").write_text(CARGO, encoding="utf-8")  # the same text, in place
    titles = [d.section_title for d in discovery_drafts(analyze(root))]
    assert "Cargo feature ordered" in titles


def test_a_file_past_the_limit_or_not_yaml_reads_as_nothing(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {"big.yml": "a: b\n" + "#" * MAX_FILE_BYTES, "bad.yml": "a: [\n", "ok.yml": "v: 3.10\n"},
    )
    assert read_text(root / "big.yml") is None and read_yaml(root / "big.yml") is None
    assert read_yaml(root / "bad.yml") is None and read_yaml(root / "absent.yml") is None
    assert read_yaml(root / "ok.yml") == {"v": 3.1}
    assert read_yaml(root / "ok.yml", as_written=True) == {"v": "3.10"}
