"""Issue 47: what a session did is kept without asking, and given back to the next one.

Every test goes through the hook contract as Claude Code runs it: ``memory-tui hook``
with the event's JSON on stdin (the real entry point, in this process; the console
script once), exit code 0, and what it prints (nothing for the capture events, the
``hookSpecificOutput`` JSON for ``SessionStart``), on transcripts written in Claude
Code's JSONL format (tests/session_transcripts.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli, run_console_script
from fakes import FakeEmbedder
from session_transcripts import new_transcript, retry_session, transcript_folder

from app.init import HOOK_COMMAND, HOOK_EVENTS, claude_code_hooks
from engine import Memory, Source
from engine.storage.paths import MemoryPaths

AWS_KEY = "AKIAZ7Q4LTSEXHPRWN3K"
GITHUB_TOKEN = "ghp_R8x2LmQ9vT4nZp7KcW1sYd6FhJ3gBa5eUo0i"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project on branch feature/retry with a memory holding one note (stored with
    vectors of the model's size, so the hook process can write to it)."""
    root = git_repo(tmp_path / "project")
    subprocess.run(
        ["git", "-C", str(root), "symbolic-ref", "HEAD", "refs/heads/feature/retry"], check=True
    )
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        memory.add("The HTTP client's retry policy lives in app/net.py", category="pattern")
    return root


def hook(project: Path, home: Path, stdin: str, **env: str) -> subprocess.CompletedProcess[str]:
    done = run_cli("hook", cwd=project, home=home, stdin=stdin, env=env)
    assert done.returncode == 0, done.stderr
    return done


def session_notes(project: Path) -> list:  # type: ignore[type-arg]
    with Memory.open(project, embedder=FakeEmbedder(384)) as memory:
        return [e for e in memory.list(source=Source.SESSION) if "session-digest" in e.keywords]


def log_lines(project: Path) -> list[str]:
    path = MemoryPaths.for_root(project).log_path
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_a_session_is_one_note_updated_as_it_goes(project: Path, home: Path) -> None:
    session = new_transcript(home, project, branch="feature/retry")
    session.prompt("Why do uploads time out on large files?").answer("The proxy caps bodies.")
    session.save()

    first = hook(project, home, session.hook_input("Stop", stop_hook_active=False))
    assert first.stdout == ""
    [note] = session_notes(project)
    assert note.source is Source.SESSION and not note.promoted
    assert "uploads time out" in note.content and "proxy caps bodies" in note.content

    session.prompt("Raise the proxy's body limit to 50 MB").answer("Raised it in nginx.conf.")
    session.save()
    hook(project, home, session.hook_input("PreCompact", trigger="auto", custom_instructions=""))
    hook(project, home, session.hook_input("SessionEnd", reason="prompt_input_exit"))

    [again] = session_notes(project)
    assert again.id == note.id and again.created_at == note.created_at
    assert "body limit" in again.content and "Raised it in nginx.conf" in again.content
    assert again.updated_at > note.updated_at
    assert log_lines(project) == []


def test_a_transcript_the_cli_wrote_offline_is_captured(project: Path, home: Path) -> None:
    """Written by Claude Code 2.1.197 itself (``claude -p`` with no account): queue
    operations, attachments, and a synthetic "Not logged in" answer."""
    written = Path(__file__).parents[1] / "data" / "transcripts"
    session = new_transcript(home, project)
    shutil.copy(written / "claude-code-2.1.197-offline.jsonl", session.path)

    hook(project, home, session.hook_input("SessionEnd", reason="other"))

    [note] = session_notes(project)
    assert "Asked: Why does the walk project exist?" in note.content
    assert "branch feature/walk" in note.content and "Not logged in" not in note.content


def test_the_digest_keeps_asks_decisions_files_failures_and_the_last_answer(
    project: Path, home: Path
) -> None:
    session = retry_session(home, project, branch="feature/retry")
    session.save()
    hook(project, home, session.hook_input("SessionEnd", reason="other"))

    [note] = session_notes(project)
    text = note.content
    assert "Asked: Make the HTTP client retry on 503 responses with backoff" in text
    assert "rather than a hand-written loop because it handles jitter" in text
    assert "Files created: requirements.txt" in text and "Files changed: app/net.py" in text
    assert "`pytest -x tests/test_net.py`; then `pytest -x tests/test_net.py` succeeded" in text
    assert "after changing requirements.txt" in text
    assert "Answered: Done: the client retries 503 responses" in text
    assert note.section_title.startswith("Session 2026-11-28 on branch feature/retry: Make")
    assert "ModuleNotFoundError" not in text  # tool output is left out by default


def test_tool_output_is_kept_only_when_configured(project: Path, home: Path) -> None:
    session = retry_session(home, project)
    session.save()
    hook(project, home, session.hook_input("Stop"), CLAUDE_MEMORY_SESSION_TOOL_OUTPUT="true")
    [note] = session_notes(project)
    assert "(ModuleNotFoundError: No module named 'tenacity')" in note.content


def test_what_claude_code_adds_to_a_session_is_not_what_was_asked(
    project: Path, home: Path
) -> None:
    session = new_transcript(home, project).prompt("Tidy the upload handler")
    session.entry("user", {"role": "user", "content": "Caveat: local commands"}, isMeta=True)
    summary = "This session is being continued from a previous conversation"
    session.entry("user", {"role": "user", "content": summary}, isCompactSummary=True)
    session.prompt(
        "<command-name>/cost</command-name>\n<local-command-stdout>Total cost: "
        "$0.42</local-command-stdout>"
    )
    reminder = "<system-reminder>The user opened app/x.py</system-reminder>Keep the tests"
    session.prompt(reminder).answer("Kept them.").save()

    hook(project, home, session.hook_input("Stop"))

    [note] = session_notes(project)
    assert "Asked: Tidy the upload handler" in note.content
    assert "Asked: Keep the tests" in note.content and "/cost" in note.content
    for added in ("Caveat", "continued from a previous", "Total cost", "opened app/x.py"):
        assert added not in note.content


def test_a_malformed_line_is_skipped_with_one_log_line(project: Path, home: Path) -> None:
    session = new_transcript(home, project).prompt("Rename the config loader")
    session.raw('{"type": "assistant", "message": {"content": [').raw("\x00\xff not json")
    session.answer("Renamed it to load_settings.").save()

    hook(project, home, session.hook_input("Stop"))

    [note] = session_notes(project)
    assert "Rename the config loader" in note.content and "load_settings" in note.content
    [line] = log_lines(project)
    assert "2 malformed transcript line(s) skipped" in line


@pytest.mark.parametrize(
    "text",
    ["this is not JSON at all\n", '[1, 2, 3]\n"a string"\n', '{"type": "summary"}\n'],
    ids=["text", "json-not-objects", "no-entries"],
)
def test_an_unparseable_transcript_is_skipped_not_a_failed_hook(
    project: Path, home: Path, text: str
) -> None:
    session = new_transcript(home, project)
    session.path.write_text(text, encoding="utf-8")

    done = hook(project, home, session.hook_input("SessionEnd", reason="clear"))

    assert done.stdout == "" and session_notes(project) == []
    [line] = log_lines(project)
    assert "session capture skipped: no Claude Code entry in the transcript" in line


def test_a_transcript_outside_the_project_is_refused(
    project: Path, home: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    session = retry_session(home, project)
    session.path = elsewhere / "stolen.jsonl"
    session.save()
    link = transcript_folder(home, project) / "link.jsonl"
    link.symlink_to(session.path)

    hook(project, home, session.hook_input("Stop"))
    session.path = link  # inside the folder by name, outside once resolved
    hook(project, home, session.hook_input("Stop"))
    session.path = Path("/etc/passwd")
    hook(project, home, session.hook_input("Stop"))

    assert session_notes(project) == []
    lines = log_lines(project)
    assert len(lines) == 3
    assert "outside this project and its Claude Code transcripts" in lines[0]
    assert "leads outside" in lines[1]
    assert "outside this project" in lines[2]


def test_a_fifo_transcript_does_not_hang_the_hook(project: Path, home: Path) -> None:
    session = new_transcript(home, project)
    os.mkfifo(session.path)
    hook(project, home, session.hook_input("Stop"))
    assert session_notes(project) == [] and "not a regular file" in log_lines(project)[0]


def test_a_secret_pasted_in_a_prompt_is_never_stored(project: Path, home: Path) -> None:
    session = new_transcript(home, project, branch="feature/retry")
    session.prompt(f"Deploy with AWS key {AWS_KEY} and <private>the staging password</private>")
    session.tool(
        "Bash",
        {"command": f"GITHUB_TOKEN={GITHUB_TOKEN} gh release list"},
        "permission denied",
        error=True,
    )
    session.answer(f"Done; I used {GITHUB_TOKEN} as you said.").save()

    hook(project, home, session.hook_input("Stop"))
    hook(
        project,
        home,
        session.hook_input("SessionEnd", reason="logout"),
        CLAUDE_MEMORY_SESSION_TOOL_OUTPUT="true",
    )
    start = hook(project, home, session.hook_input("SessionStart", source="resume"))
    prompt = hook(
        project,
        home,
        json.dumps(
            {
                "hook_event_name": "UserPromptSubmit",
                "prompt": "deploy with the AWS key",
                "cwd": str(project),
            }
        ),
    )

    [note] = session_notes(project)
    assert "[redacted: aws-access-token]" in note.content
    assert "[redacted: private]" in note.content and "staging password" not in note.content
    assert "deploy" in note.section_title.lower()
    secrets = (AWS_KEY, GITHUB_TOKEN, "staging password")
    for text in (
        note.content,
        note.section_title,
        " ".join(note.keywords),
        start.stdout,
        prompt.stdout,
        start.stderr,
        "\n".join(log_lines(project)),
    ):
        assert not any(s in text for s in secrets)
    memory_dir = MemoryPaths.for_root(project).memory_dir
    for path in memory_dir.rglob("*"):  # the store, the mirror, the log, the locks
        if path.is_file():
            data = path.read_bytes()
            assert not any(s.encode() in data for s in secrets), path


def test_no_memory_in_a_prompt_keeps_nothing_of_the_session(project: Path, home: Path) -> None:
    session = retry_session(home, project)
    session.save()
    hook(project, home, session.hook_input("Stop"))
    assert len(session_notes(project)) == 1

    session.prompt("#NO-MEMORY from here: this session is not to be kept").save()
    hook(project, home, session.hook_input("SessionEnd", reason="other"))
    assert session_notes(project) == []

    other = new_transcript(home, project).prompt("Quick question #no-memory").save()
    hook(
        project,
        home,
        json.dumps(
            {
                "session_id": other.stem,
                "transcript_path": str(other),
                "cwd": str(project),
                "hook_event_name": "Stop",
            }
        ),
    )
    assert session_notes(project) == []


def test_the_off_switch_keeps_nothing(project: Path, home: Path) -> None:
    (project / ".claude" / "memory.config.toml").write_text("session_capture = false\n")
    session = retry_session(home, project)
    session.save()
    hook(project, home, session.hook_input("SessionEnd", reason="other"))
    assert session_notes(project) == [] and log_lines(project) == []

    (project / ".claude" / "memory.config.toml").write_text("session_capture = true\n")
    hook(project, home, session.hook_input("SessionEnd", reason="other"))
    assert len(session_notes(project)) == 1


def test_a_new_session_starts_with_the_branchs_last_sessions(project: Path, home: Path) -> None:
    before = hook(project, home, new_transcript(home, project).hook_input("SessionStart"))
    assert before.stdout == ""  # no digest yet: nothing to add
    retry = retry_session(home, project, branch="feature/retry")
    retry.save()
    hook(project, home, retry.hook_input("SessionEnd", reason="other"))
    other = new_transcript(home, project, branch="main")
    other.prompt("Write the release notes for 2.3").answer("Wrote CHANGELOG.md.").save()
    hook(project, home, other.hook_input("SessionEnd", reason="other"))

    start = hook(
        project, home, new_transcript(home, project).hook_input("SessionStart", source="startup")
    )

    output = json.loads(start.stdout)
    assert output["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    block = output["hookSpecificOutput"]["additionalContext"]
    assert block.startswith("<project-memory-sessions>") and "on branch feature/retry" in block
    assert "retry on 503 responses" in block and "release notes" not in block
    assert "Notes matching that work:" in block and "retry policy lives in app/net.py" in block
    assert len(block) <= 1_500 * 4

    small = hook(
        project,
        home,
        new_transcript(home, project).hook_input("SessionStart"),
        CLAUDE_MEMORY_SESSION_RECALL_TOKENS="120",
    )
    assert len(json.loads(small.stdout)["hookSpecificOutput"]["additionalContext"]) <= 480
    none = hook(
        project,
        home,
        new_transcript(home, project).hook_input("SessionStart"),
        CLAUDE_MEMORY_SESSION_RECALL_TOKENS="0",
    )
    assert none.stdout == ""


def test_the_prompt_hook_ranks_digests_with_the_other_notes(project: Path, home: Path) -> None:
    session = new_transcript(home, project)
    session.prompt("Move the invoice PDF renderer from wkhtmltopdf to weasyprint")
    session.answer("Moved: invoices render with weasyprint now.").save()
    hook(project, home, session.hook_input("Stop"))

    asked = json.dumps(
        {
            "hook_event_name": "UserPromptSubmit",
            "cwd": str(project),
            "prompt": "which library renders the invoice PDF?",
        }
    )
    done = hook(project, home, asked)

    [note] = session_notes(project)
    assert "<project-memory>" in done.stdout and f"(id {note.id})" in done.stdout


def test_digests_are_personal_notes_waiting_for_their_vector(project: Path, home: Path) -> None:
    session = retry_session(home, project)
    session.save()
    hook(project, home, session.hook_input("Stop"))
    [note] = session_notes(project)
    with Memory.open(project, embedder=FakeEmbedder(384)) as memory:
        assert note.id in [e.id for e in memory.unpromoted_notes()]  # what F7 lists
        assert memory.vectors_waiting() == 1  # stored without loading the model


@pytest.mark.slow
def test_a_digest_is_promoted_like_any_note(project: Path, home: Path) -> None:
    session = retry_session(home, project)
    session.save()
    hook(project, home, session.hook_input("Stop"))
    [note] = session_notes(project)

    promoted = run_cli("promote", note.id, cwd=project, home=home)
    assert promoted.returncode == 0, promoted.stderr
    written = "".join(p.read_text() for p in (project / ".claude" / "knowledge").rglob("*.md"))
    assert "Make the HTTP client retry on 503 responses" in written


def test_the_console_script_answers_each_event_by_the_contract(project: Path, home: Path) -> None:
    session = retry_session(home, project, branch="feature/retry")
    session.save()
    for event in ("Stop", "SessionEnd"):
        done = run_console_script("hook", cwd=project, home=home, stdin=session.hook_input(event))
        assert (done.returncode, done.stdout) == (0, "")
    start = run_console_script(
        "hook", cwd=project, home=home, stdin=session.hook_input("SessionStart", source="compact")
    )
    assert start.returncode == 0
    assert "retry on 503" in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    broken = run_console_script("hook", cwd=project, home=home, stdin="{not json")
    assert broken.returncode == 0 and broken.stdout == ""


def test_init_wires_every_session_event_once(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "fresh")
    for _ in range(2):
        done = run_cli("init", "--skip-analyze", "--skip-index", "--no-hooks", cwd=root, home=home)
        assert done.returncode == 0, done.stderr
    hooks = json.loads((root / ".claude" / "settings.json").read_text())["hooks"]
    assert set(HOOK_EVENTS) == {
        "UserPromptSubmit",
        "SessionStart",
        "Stop",
        "SessionEnd",
        "PreCompact",
    }
    for event in HOOK_EVENTS:
        assert [h["command"] for g in hooks[event] for h in g["hooks"]] == [HOOK_COMMAND]
    assert hooks == claude_code_hooks()
    [[session_end]] = [g["hooks"] for g in hooks["SessionEnd"]]
    assert session_end["timeout"] == 30  # Claude Code cancels it after 1.5 s otherwise
    [[stop]] = [g["hooks"] for g in hooks["Stop"]]
    assert stop["async"] is True  # a capture after every turn holds no prompt


def test_the_plugin_hooks_the_events_init_wires() -> None:
    """plugin/hooks/hooks.json: the same events and options as ``init``'s settings, each
    through the plugin's launcher instead of ``memory-tui`` on PATH."""
    path = Path(__file__).parents[2] / "plugin" / "hooks" / "hooks.json"
    launcher = '"${CLAUDE_PLUGIN_ROOT}/scripts/memory-tui.sh" hook'
    expected = {
        event: [{"hooks": [{**hook, "command": launcher} for hook in group["hooks"]]}]
        for event, groups in claude_code_hooks().items()
        for group in groups
    }
    assert json.loads(path.read_text())["hooks"] == expected


@pytest.mark.slow
def test_a_50_mb_transcript_is_digested_within_its_bounds(project: Path, home: Path) -> None:
    session = new_transcript(home, project)
    output = "x" * 200_000
    for turn in range(240):
        session.prompt(f"Step {turn}: check the parser on sample {turn}")
        session.tool("Read", {"file_path": str(project / f"sample_{turn}.txt")}, output)
        session.answer(f"Sample {turn} parses.")
    session.save()
    assert session.path.stat().st_size > 48_000_000

    hook(project, home, session.hook_input("SessionEnd", reason="other"))

    [note] = session_notes(project)
    assert len(note.content) <= 6_000 and "Step 0: check the parser" in note.content
    assert "Step 239" in note.content and "more exchanges left out" in note.content
    assert "xxxxxxxxxx" not in note.content


SUMMARIZER = """
import os, pathlib, sys
text = sys.stdin.read()
guard = os.environ.get("MEMORY_TUI_SUMMARIZING", "")
pathlib.Path(sys.argv[1]).write_text(text + "\\nGUARD=" + guard)
if sys.argv[2] == "fail":
    sys.exit(3)
print("In prose: the client now retries 503 responses, using tenacity for its jitter.")
"""


def summarizer(tmp_path: Path, mode: str) -> dict[str, str]:
    script = tmp_path / "summarize.py"
    script.write_text(SUMMARIZER)
    command = f"{sys.executable} {script} {tmp_path / 'received.txt'} {mode}"
    return {"MEMORY_TUI_SESSION_SUMMARIZER": command}


def test_a_summariser_writes_the_digest_in_prose_at_session_end(
    project: Path, home: Path, tmp_path: Path
) -> None:
    session = retry_session(home, project)
    session.prompt(f"Also rotate the key {AWS_KEY}").save()
    env = summarizer(tmp_path, "ok")

    hook(project, home, session.hook_input("Stop"), **env)
    [turn] = session_notes(project)
    assert "Asked and answered:" in turn.content and "In prose" not in turn.content

    hook(project, home, session.hook_input("SessionEnd", reason="other"), **env)

    [note] = session_notes(project)
    assert note.id == turn.id
    assert note.content.startswith(f"Claude Code session {session.session_id[:8]} of 2026-11-28")
    assert note.content.endswith("using tenacity for its jitter.")
    received = (tmp_path / "received.txt").read_text()
    assert "Asked: Make the HTTP client retry" in received and received.endswith("GUARD=1")
    assert AWS_KEY not in received and AWS_KEY not in note.content  # it gets the redacted digest


def test_a_failing_summariser_leaves_the_deterministic_digest(
    project: Path, home: Path, tmp_path: Path
) -> None:
    session = retry_session(home, project)
    session.save()

    hook(
        project,
        home,
        session.hook_input("PreCompact", trigger="auto"),
        **summarizer(tmp_path, "fail"),
    )

    [note] = session_notes(project)
    assert "Asked and answered:" in note.content
    [line] = log_lines(project)
    assert "the deterministic digest kept: the summariser exited with status 3" in line


def test_the_hooks_of_a_summarisers_own_session_do_nothing(project: Path, home: Path) -> None:
    session = retry_session(home, project)
    session.save()
    hook(
        project, home, session.hook_input("SessionEnd", reason="other"), MEMORY_TUI_SUMMARIZING="1"
    )
    assert session_notes(project) == []


def test_a_project_without_a_memory_keeps_nothing_and_creates_nothing(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "bare")
    session = retry_session(home, root)
    session.save()
    for event in ("Stop", "SessionEnd", "SessionStart"):
        done = hook(root, home, session.hook_input(event))
        assert done.stdout == ""
    assert not (root / ".claude").exists()


def test_another_projects_transcript_folder_is_refused(project: Path, home: Path) -> None:
    other = git_repo(project.parent / "other")
    session = retry_session(home, other)  # in the other project's transcript folder
    session.save()
    payload = json.loads(session.hook_input("Stop"))
    payload["cwd"] = str(project)
    hook(project, home, json.dumps(payload))
    payload["cwd"] = str(other)  # a cwd outside the project does not widen the folders
    done = run_cli(
        "--project", str(project), "hook", cwd=project, home=home, stdin=json.dumps(payload)
    )
    assert done.returncode == 0, done.stderr
    assert session_notes(project) == []
    lines = log_lines(project)
    assert len(lines) == 2 and all("outside this project" in line for line in lines)
