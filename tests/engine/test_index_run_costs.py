"""What a one-file index run does not pay for (issue 38: edit to keyword-searchable in a
second): structural checks, no timings."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.guards.files import project_files


def test_listing_resolves_only_the_base_and_the_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that is no link lies where the walk found it, inside the folder: listing 40
    of them resolves the folder alone, not each file (one ``lstat`` each instead)."""
    base = tmp_path / "knowledge"
    (base / "sub").mkdir(parents=True)
    for n in range(20):
        (base / f"note{n}.md").write_text("x\n", encoding="utf-8")
        (base / "sub" / f"page{n}.md").write_text("y\n", encoding="utf-8")
    (base / "linked.md").symlink_to(base / "note0.md")
    outside = tmp_path / "outside.md"
    outside.write_text("z\n", encoding="utf-8")
    (base / "out.md").symlink_to(outside)
    resolved: list[Path] = []
    real_resolve = Path.resolve

    def counting(self: Path, strict: bool = False) -> Path:
        resolved.append(self)
        return real_resolve(self, strict=strict)

    monkeypatch.setattr(Path, "resolve", counting)
    listed = {p.relative_to(base).as_posix() for p in project_files(base)}
    assert len(listed) == 41 and "linked.md" in listed and "out.md" not in listed
    assert sorted(p.name for p in resolved) == ["knowledge", "linked.md", "out.md"]
