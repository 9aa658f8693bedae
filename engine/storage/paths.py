"""Where a project's memory lives on disk."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core.config import Config
from engine.core.folders import folder_inside


@dataclass(frozen=True, slots=True)
class MemoryPaths:
    """Every file and folder of one project's memory, derived from its root."""

    root: Path
    knowledge_dir: Path
    store_uri: str = ""
    """The store of record on object storage ("" for :attr:`vectors_dir`)."""
    store_allow_http: bool = False

    @classmethod
    def for_root(
        cls,
        root: Path,
        knowledge_dir: str = ".claude/knowledge",
        *,
        store_uri: str = "",
        store_allow_http: bool = False,
    ) -> MemoryPaths:
        """Paths of the project at ``root`` (made absolute); ``store_uri`` and
        ``store_allow_http`` as configured (see :mod:`engine.storage.remote`).

        Raises:
            ConfigError: the knowledge folder or ``.claude/memory`` leads outside the
                project (``..``, an absolute path or a symlink): nothing is read or written
                outside it.
        """
        root = root.resolve()
        folder_inside(root, knowledge_dir, f"knowledge_dir {knowledge_dir!r}")
        folder_inside(root, ".claude/memory", "the memory folder .claude/memory")
        return cls(root, root / knowledge_dir, store_uri, store_allow_http)

    @classmethod
    def for_config(cls, root: Path, config: Config) -> MemoryPaths:
        """Paths of the project at ``root`` as ``config`` places them."""
        return cls.for_root(
            root,
            config.knowledge_dir,
            store_uri=config.store_uri,
            store_allow_http=config.store_allow_http,
        )

    @property
    def knowledge_prefix(self) -> str:
        """The knowledge folder relative to the root, with a trailing slash ("" when it lies
        outside the project): what ``memory://`` resource URIs are relative to."""
        try:
            return self.knowledge_dir.relative_to(self.root).as_posix() + "/"
        except ValueError:
            return ""

    @property
    def claude_dir(self) -> Path:
        """``.claude/``."""
        return self.root / ".claude"

    @property
    def memory_dir(self) -> Path:
        """``.claude/memory/``: everything the engine writes."""
        return self.claude_dir / "memory"

    @property
    def vectors_dir(self) -> Path:
        """The LanceDB database (store of record) unless :attr:`store_uri` is set."""
        return self.memory_dir / "vectors"

    def may_have_store(self) -> bool:
        """Whether a store of record may exist (a remote one, or the local folder)."""
        return bool(self.store_uri) or self.vectors_dir.exists()

    @property
    def fts_path(self) -> Path:
        """The derived keyword index and entry mirror."""
        return self.memory_dir / "fts.sqlite"

    @property
    def meta_path(self) -> Path:
        """File hashes for incremental indexing, discovery state."""
        return self.memory_dir / "meta.json"

    @property
    def embedding_cache_path(self) -> Path:
        """Vectors already computed, keyed by content hash and model."""
        return self.memory_dir / "embeddings.sqlite"

    @property
    def lock_path(self) -> Path:
        """The cross-process write lock."""
        return self.memory_dir / "write.lock"

    @property
    def index_lock_path(self) -> Path:
        """Held for a whole index run: one run of a project at a time."""
        return self.memory_dir / "index.lock"

    @property
    def embed_lock_path(self) -> Path:
        """Held while a process embeds the backlog: one embedder of a project at a time."""
        return self.memory_dir / "embed.lock"

    @property
    def log_path(self) -> Path:
        """Log file of long-running faces (the MCP server)."""
        return self.memory_dir / "memory-tui.log"
