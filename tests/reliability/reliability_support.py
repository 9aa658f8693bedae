"""Helpers of the reliability tests: worker processes, knowledge trees, consistency checks."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from fakes import FakeEmbedder
from read_back import from_the_store, shown

from engine.core.models import Source
from engine.services.indexing import Indexer
from engine.services.memory import Memory

REPO = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("worker.py")
KNOWLEDGE = ".claude/knowledge"
LOCKED = ("database is locked", "database table is locked", "SQLITE_BUSY")

_WORDS = [
    "kafka",
    "parquet",
    "minio",
    "trino",
    "hive",
    "metastore",
    "grafana",
    "alert",
    "tenant",
    "partition",
    "backup",
    "snapshot",
    "retention",
    "invoice",
    "billing",
    "ledger",
    "webhook",
    "retry",
    "backoff",
    "jitter",
    "cache",
    "shard",
    "replica",
    "leader",
    "follower",
    "quorum",
    "raft",
    "etcd",
    "consul",
    "vault",
    "ingress",
    "gateway",
    "schema",
    "migration",
    "rollout",
    "canary",
    "feature",
    "flag",
    "tracing",
    "span",
    "metric",
    "histogram",
]


def worker_env() -> dict[str, str]:
    """Environment of a worker: the repository and tests/ importable, no user config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "tests")])
    env.pop("PYTHONWARNINGS", None)
    return env


def spawn(*args: str | Path) -> subprocess.Popen[str]:
    """Start ``worker.py`` with the venv's python; stdout and stderr are captured."""
    return subprocess.Popen(
        [sys.executable, str(WORKER), *map(str, args)],
        cwd=REPO,
        env=worker_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def paragraph(rng: random.Random, words: int = 40) -> str:
    """A paragraph of random vocabulary words (distinct enough to chunk separately)."""
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def knowledge_file(rng: random.Random, sections: int) -> str:
    """A markdown file with a title and ``sections`` sections of one or two paragraphs."""
    parts = [f"# Topic {rng.randrange(10**6)}\n"]
    for n in range(sections):
        parts.append(f"## Section {n} {rng.choice(_WORDS)}\n\n{paragraph(rng)}\n")
        if rng.random() < 0.5:
            parts.append(f"{paragraph(rng, 25)}\n")
    return "\n".join(parts)


def write_tree(root: Path, files: int, rng: random.Random) -> list[Path]:
    """A knowledge folder of ``files`` markdown files across the category folders."""
    folders = ("architecture", "components", "domain", "patterns", "")
    paths = []
    for n in range(files):
        path = root / KNOWLEDGE / folders[n % len(folders)] / f"note-{n:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(knowledge_file(rng, rng.randint(2, 6)), encoding="utf-8")
        paths.append(path)
    return paths


def mutate_tree(root: Path, rng: random.Random, trial: int) -> None:
    """Change the tree the way a working day does: edit, add and delete a few files."""
    files = sorted((root / KNOWLEDGE).rglob("*.md"))
    for path in rng.sample(files, k=max(1, len(files) // 4)):
        text = path.read_text(encoding="utf-8")
        path.write_text(text + f"\n## Added in trial {trial}\n\n{paragraph(rng)}\n", "utf-8")
    for path in rng.sample(files, k=2):
        path.unlink()
    for n in range(2):
        extra = root / KNOWLEDGE / "domain" / f"trial-{trial}-{n}.md"
        extra.parent.mkdir(parents=True, exist_ok=True)
        extra.write_text(knowledge_file(rng, 3), encoding="utf-8")


@dataclass(frozen=True)
class Snapshot:
    """What a memory holds, as far as the reliability tests care."""

    store_ids: frozenset[str]
    mirror_ids: frozenset[str]
    markdown: frozenset[tuple[str, str, int]]
    """(file, content hash, first line) of every knowledge-file entry."""
    mirror_matches_store: bool
    integrity_ok: bool


def snapshot(root: Path) -> Snapshot:
    """Open the memory (repairing what it repairs on open) and compare mirror and store."""
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        # Reference counts wait in the index until folded into the store by the next
        # process that writes it (a search commits nothing); compact() hands them over,
        # as that write would.
        memory.compact()
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        listed = shown(memory)
        stored = from_the_store(memory)
        index = memory.paths.fts_path
    return Snapshot(
        store_ids=frozenset(stored),
        mirror_ids=frozenset(listed),
        markdown=frozenset(
            (e.file_path, e.content_hash, e.line_start)
            for e in stored.values()
            if e.source is Source.MARKDOWN
        ),
        mirror_matches_store=listed == stored,
        integrity_ok=keyword_index_intact(index),
    )


def keyword_index_intact(path: Path) -> bool:
    """Whether the keyword index file on disk passes FTS5's integrity check and SQLite's
    quick_check."""
    db = sqlite3.connect(path)
    try:
        db.execute("INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')")
        return bool(db.execute("PRAGMA quick_check").fetchone()[0] == "ok")
    except sqlite3.DatabaseError:
        return False
    finally:
        db.close()


def reference_markdown(root: Path, scratch: Path) -> frozenset[tuple[str, str, int]]:
    """The knowledge-file entries a clean index of ``root``'s knowledge folder makes."""
    import shutil

    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(root / KNOWLEDGE, scratch / KNOWLEDGE)
    with Memory.open(scratch, embedder=FakeEmbedder()) as memory:
        Indexer(memory).run()
    return snapshot(scratch).markdown
