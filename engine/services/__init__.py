"""What the faces ask the engine to do, composed from the layers below.

Owns: the :class:`~.memory.Memory` facade (:mod:`.memory`), writing entries
(:mod:`.entries`), indexing knowledge files (:mod:`.indexing`), codebase discovery
(:mod:`.discovery`), promotion to knowledge files (:mod:`.promote`), health checks and
repairs (:mod:`.health`) and watch mode (:mod:`.watch`).
May import: every other engine package. Nothing in the engine imports it except the
public API in :mod:`engine`.
"""
