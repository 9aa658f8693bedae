"""Claude Code transcripts for the session hooks' tests, written in its documented JSONL
format (one entry per line: ``type`` user/assistant, ``message`` with ``role`` and
``content`` — a string or blocks of ``text``, ``tool_use``, ``tool_result`` —, and the
``uuid``, ``parentUuid``, ``sessionId``, ``timestamp``, ``cwd``, ``gitBranch``,
``version``, ``isSidechain`` and ``userType`` fields), where Claude Code keeps them:
``<config dir>/projects/<the project's path, every non-alphanumeric character "-">/``."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def transcript_folder(home: Path, project: Path) -> Path:
    """Claude Code's transcript folder of ``project`` under ``home/.claude``."""
    folder = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class Transcript:
    """A session's transcript being written, entry by entry."""

    path: Path
    session_id: str
    project: Path
    branch: str = "main"
    minute: int = 0
    last: str | None = None
    tools: int = 0
    lines: list[str] = field(default_factory=list)

    def entry(self, kind: str, message: dict[str, Any], **extra: Any) -> None:
        self.minute += 1
        entry = {
            "parentUuid": self.last,
            "isSidechain": False,
            "userType": "external",
            "cwd": str(self.project),
            "sessionId": self.session_id,
            "version": "2.0.14",
            "gitBranch": self.branch,
            "type": kind,
            "message": message,
            "uuid": str(uuid.uuid4()),
            "timestamp": f"2026-11-28T{10 + self.minute // 60:02d}:{self.minute % 60:02d}:00.000Z",
            **extra,
        }
        self.last = entry["uuid"]
        self.lines.append(json.dumps(entry))

    def prompt(self, text: str) -> Transcript:
        self.entry("user", {"role": "user", "content": text})
        return self

    def answer(self, text: str) -> Transcript:
        content = [{"type": "text", "text": text}]
        self.entry("assistant", _assistant(content))
        return self

    def tool(
        self, name: str, given: dict[str, Any], result: str, *, error: bool = False
    ) -> Transcript:
        self.tools += 1
        tool_id = f"toolu_{self.tools:04d}"
        use = {"type": "tool_use", "id": tool_id, "name": name, "input": given}
        self.entry("assistant", _assistant([use]))
        block = {
            "type": "tool_result",
            "tool_use_id": tool_id,
            "content": result,
            "is_error": error,
        }
        self.entry("user", {"role": "user", "content": [block]})
        return self

    def raw(self, line: str) -> Transcript:
        self.lines.append(line)
        return self

    def save(self) -> Path:
        self.path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        return self.path

    def hook_input(self, event: str, **extra: Any) -> str:
        """The JSON Claude Code sends a hook of ``event`` in this session."""
        payload = {
            "session_id": self.session_id,
            "transcript_path": str(self.path),
            "cwd": str(self.project),
            "permission_mode": "default",
            "hook_event_name": event,
            **extra,
        }
        return json.dumps(payload)


def _assistant(content: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": f"msg_{uuid.uuid4().hex[:24]}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def new_transcript(home: Path, project: Path, *, branch: str = "main") -> Transcript:
    """An empty transcript of a new session of ``project``, in Claude Code's folder."""
    session_id = str(uuid.uuid4())
    path = transcript_folder(home, project) / f"{session_id}.jsonl"
    return Transcript(path, session_id, project, branch)


def retry_session(home: Path, project: Path, *, branch: str = "main") -> Transcript:
    """A session that asks for a change, decides, edits, fails a command and fixes it."""
    return (
        new_transcript(home, project, branch=branch)
        .prompt("Make the HTTP client retry on 503 responses with backoff")
        .answer("I'll use tenacity rather than a hand-written loop because it handles jitter.")
        .tool(
            "Edit",
            {"file_path": str(project / "app" / "net.py"), "old_string": "a", "new_string": "b"},
            "The file app/net.py has been updated.",
        )
        .tool(
            "Bash",
            {"command": "pytest -x tests/test_net.py"},
            "Exit code 1\nModuleNotFoundError: No module named 'tenacity'",
            error=True,
        )
        .tool(
            "Write",
            {"file_path": str(project / "requirements.txt"), "content": "tenacity\n"},
            "File created successfully",
        )
        .tool("Bash", {"command": "pytest -x tests/test_net.py"}, "1 passed in 0.02s")
        .answer("Done: the client retries 503 responses with exponential backoff and jitter.")
    )
