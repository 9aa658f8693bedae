"""The engine's exceptions: one base class, a stable code per kind of failure.

Faces (CLI, TUI, MCP) map these to exit codes, inline messages and tool errors;
the ``code`` strings are part of the MCP contract and must not change.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""

    code = "INTERNAL_ERROR"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class InvalidInputError(EngineError):
    """A caller passed something the engine cannot accept."""

    code = "INVALID_INPUT"


class ContentTooLongError(InvalidInputError):
    """Entry content is over the length limit."""

    code = "CONTENT_TOO_LONG"


class SecretDetectedError(InvalidInputError):
    """Content looks like it carries a secret and the policy is to reject it."""

    code = "SECRET_DETECTED"


class FileIsSourceError(InvalidInputError):
    """The entry is indexed from a markdown file: change the file, not the memory."""

    code = "FILE_IS_SOURCE"


class NotFoundError(EngineError):
    """No entry (or file) by that identifier."""

    code = "NOT_FOUND"


class ConfigError(EngineError):
    """The configuration file or an environment variable is invalid."""

    code = "CONFIG_INVALID"


class StorageError(EngineError):
    """The store on disk is missing, unreadable or could not be written."""

    code = "STORAGE_ERROR"


class LockTimeoutError(StorageError):
    """Another process held the write lock for too long."""

    code = "STORAGE_BUSY"
