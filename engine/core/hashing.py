"""Content identity: the SHA-256 of normalised text."""

from __future__ import annotations

import hashlib


def normalize_content(text: str) -> str:
    """LF line endings, surrounding whitespace trimmed: the form that is hashed and stored."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def content_hash(text: str) -> str:
    """Hex SHA-256 of :func:`normalize_content` of ``text``."""
    return hashlib.sha256(normalize_content(text).encode("utf-8")).hexdigest()


def content_hash_bytes(data: bytes) -> str:
    """SHA-256 of a file's raw bytes."""
    return hashlib.sha256(data).hexdigest()
