"""Session recall on the LoCoMo dev conversations — ``python -m bench.session_recall``.

Issue 47 measured as a retrieval problem (LongMemEval's session-level recall: which past
session holds the answer). Each session of each of the five conversations is written as
a Claude Code transcript (the first speaker's turns as prompts, the other's as answers,
the session's date as the timestamps) and captured by the product's capture path
(:func:`app.sessions.capture.capture`, one digest note per session, then embedded as a
server's backlog would be). Every question is then searched with the product's defaults
(hybrid, and keyword as the hooks search) in three memories per conversation:

* **digests**: the session digests;
* **raw turns**: every turn its own note (today's path, ``memory_add`` per turn), a
  result counting for its session;
* **first/last turns**: one note per session holding its first and last
  :data:`EDGE_TURNS` turns (the naive digest).

Session recall@k: the share of a question's evidence sessions among the first k distinct
sessions of its results (each question counts once). Then the hook itself, as Claude Code
runs it (the console script, a fresh process): its wall time at session end, p50/p95 over
:data:`LATENCY_SESSIONS` sessions captured for the first time and again unchanged, and on
a 50 MB transcript; and the size of the ``SessionStart`` block with the default budget.
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.fusion_lab import CACHE, LOCOMO, _qrels, _read_jsonl
from bench.metrics import percentile, recall_at_k

ROOT = CACHE / "sessions"
EDGE_TURNS = 3
KS = (1, 3, 5)
MODES = ("hybrid", "keyword")
LATENCY_SESSIONS = 20
_TURN = re.compile(r"^(\d{1,2}:\d{2} [ap]m on \d{1,2} \w+, \d{4}) ([^:]+): (.*)$", re.DOTALL)

Turn = tuple[str, str, str, str]
"""(document id, ISO time, speaker, text)."""


def sessions_of(folder: Path) -> dict[str, list[Turn]]:
    """The conversation's turns by session number, in order."""
    sessions: dict[str, list[Turn]] = defaultdict(list)
    for row in _read_jsonl(folder / "corpus.jsonl"):
        doc, text = str(row["_id"]), str(row["text"])
        match = _TURN.match(text)
        if match is None:
            raise ValueError(f"{doc}: not '<date> <speaker>: <text>'")
        when = datetime.strptime(match[1], "%I:%M %p on %d %B, %Y").isoformat() + "Z"
        sessions[doc[1:].split(":")[0]].append((doc, when, match[2], match[3]))
    return dict(sessions)


def write_transcript(path: Path, session_id: str, turns: list[Turn], cwd: Path) -> None:
    """The session as Claude Code's JSONL: the first speaker prompts, the other answers."""
    first = turns[0][2]
    lines = []
    for n, (_, when, speaker, text) in enumerate(turns):
        said = f"{speaker}: {text}"
        if speaker == first:
            message: dict[str, Any] = {"role": "user", "content": said}
        else:
            message = {"role": "assistant", "content": [{"type": "text", "text": said}]}
        entry = {
            "type": message["role"],
            "message": message,
            "sessionId": session_id,
            "uuid": f"{session_id}-{n}",
            "timestamp": when,
            "cwd": str(cwd),
            "gitBranch": "",
            "isSidechain": False,
        }
        lines.append(json.dumps(entry))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def payload(root: Path, session_id: str, event: str = "SessionEnd") -> dict[str, str]:
    transcript = root / "transcripts" / f"{session_id}.jsonl"
    return {
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": str(root),
        "hook_event_name": event,
        "reason": "other",
    }


def build(conv: str, kind: str, sessions: dict[str, list[Turn]]) -> dict[str, str]:
    """The memory of ``kind`` for ``conv`` (built once), as {entry id: session}."""
    from engine import Config, Memory

    root = ROOT / conv / kind
    ids_path = root / "sessions.json"
    if ids_path.exists():
        return dict(json.loads(ids_path.read_text()))
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    config = replace(Config(), secret_policy="redact")
    if kind == "digests":
        ids = _capture_all(conv, root, config, sessions)
    else:
        with Memory.open(root, config=config) as memory:
            ids = _add_turns(memory, kind, sessions)
    ids_path.write_text(json.dumps(ids))
    return ids


def _capture_all(
    conv: str, root: Path, config: Any, sessions: dict[str, list[Turn]]
) -> dict[str, str]:
    """Each session written as a transcript and captured; the digests embedded."""
    from app.sessions.capture import capture, digests
    from engine import Memory, NewEntry

    with Memory.open(root, config=config) as memory:  # the memory exists, empty
        memory.delete(memory.add_many([NewEntry("placeholder")], embed=False)[0].entry.id)
    for number, turns in sessions.items():
        session_id = f"{conv}-session-{number}"
        write_transcript(root / "transcripts" / f"{session_id}.jsonl", session_id, turns, root)
        capture(payload(root, session_id), root, config)
    with Memory.open(root, config=config) as memory:
        memory.embed_waiting()
        return {
            e.id: next(k for k in e.keywords if k.startswith("session:")).rsplit("-", 1)[1]
            for e in digests(memory)
        }


def _add_turns(memory: Any, kind: str, sessions: dict[str, list[Turn]]) -> dict[str, str]:
    """Every turn a note (``raw``), or each session's first and last turns one note."""
    from engine import NewEntry

    items, owners = [], []
    for number, turns in sessions.items():
        if kind == "raw":
            items += [NewEntry(f"{when} {who}: {text}") for _, when, who, text in turns]
            owners += [number] * len(turns)
        else:
            edge = turns[:EDGE_TURNS] + turns[-EDGE_TURNS:] * (len(turns) > EDGE_TURNS)
            lines = [f"Session of {turns[0][1][:10]}"]
            lines += [f"{who}: {text}" for _, _, who, text in edge]
            items.append(NewEntry("\n".join(lines)[:10_000]))
            owners.append(number)
    results = memory.add_many(items)
    return {r.entry.id: owner for r, owner in zip(results, owners, strict=True)}


def session_ranks(memory: Any, ids: dict[str, str], question: str, mode: str) -> list[str]:
    found = memory.search(question, mode=mode, limit=40).results
    return list(dict.fromkeys(ids[r.entry.id] for r in found if r.entry.id in ids))


def recall_figures() -> dict[tuple[str, str], dict[int, list[float]]]:
    from engine import Memory

    figures: dict[tuple[str, str], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for conv in sorted(p.name for p in LOCOMO.iterdir() if p.is_dir()):
        folder = LOCOMO / conv
        sessions = sessions_of(folder)
        qrels = _qrels(folder / "qrels" / "test.tsv")
        questions = [r for r in _read_jsonl(folder / "queries.jsonl") if str(r["_id"]) in qrels]
        for kind in ("digests", "raw", "first-last"):
            ids = build(conv, kind, sessions)
            with Memory.open(ROOT / conv / kind) as memory:
                for row in questions:
                    wanted = {d[1:].split(":")[0]: 1 for d in qrels[str(row["_id"])]}
                    for mode in MODES:
                        ranked = session_ranks(memory, ids, str(row["text"]), mode)
                        for k in KS:
                            figures[kind, mode][k].append(recall_at_k(ranked, wanted, k))
        print(f"{conv}: {len(sessions)} sessions, {len(questions)} questions", flush=True)
    return figures


def hook_seconds(root: Path, stdin: dict[str, str]) -> float:
    script = Path(sys.executable).parent / "memory-tui"
    start = time.perf_counter()
    done = subprocess.run(
        [str(script), "hook"],
        input=json.dumps(stdin),
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return elapsed


def latency() -> None:
    from app.sessions.recall import recall_block
    from engine import Config, Memory, NewEntry

    conv = sorted(p.name for p in LOCOMO.iterdir() if p.is_dir())[0]
    sessions = list(sessions_of(LOCOMO / conv).items())[:LATENCY_SESSIONS]
    root = ROOT / "latency"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    with Memory.open(root) as memory:
        memory.add_many([NewEntry("A note so the memory exists")], embed=False)
    first, again = [], []
    for number, turns in sessions:
        session_id = f"latency-{number}"
        write_transcript(root / "transcripts" / f"{session_id}.jsonl", session_id, turns, root)
        first.append(hook_seconds(root, payload(root, session_id)))
        again.append(hook_seconds(root, payload(root, session_id)))
    for name, values in (("first capture (added)", first), ("again (unchanged)", again)):
        print(
            f"hook at session end, {name}: p50 {statistics.median(values) * 1000:.0f} ms, "
            f"p95 {percentile(values, 95) * 1000:.0f} ms ({len(values)} runs)"
        )
    big = root / "transcripts" / "big.jsonl"
    _write_big(big, root)
    runs = [hook_seconds(root, payload(root, "big")) for _ in range(3)]
    print(
        f"hook at session end on a {big.stat().st_size / 1e6:.0f} MB transcript: "
        f"{', '.join(f'{r:.2f}' for r in runs)} s"
    )
    starts = [hook_seconds(root, payload(root, "next", "SessionStart")) for _ in range(5)]
    print(f"SessionStart hook: p50 {statistics.median(starts) * 1000:.0f} ms")
    for conv_root in sorted(ROOT.glob("conv-*/digests")):
        block = recall_block(conv_root, Config())
        print(
            f"SessionStart block, {conv_root.parent.name}: {len(block):,} characters "
            f"(~{len(block) // 4} tokens of the default 1,500)"
        )


def _write_big(path: Path, root: Path) -> None:
    """A 50 MB transcript: 240 turns, each reading a 200 kB file."""
    lines = []
    output = "x" * 200_000
    for n in range(240):
        stamp = f"2026-11-28T10:{n % 60:02d}:00Z"
        base = {"sessionId": "big", "cwd": str(root), "timestamp": stamp, "gitBranch": "main"}
        use = {
            "type": "tool_use",
            "id": f"t{n}",
            "name": "Read",
            "input": {"file_path": str(root / f"f{n}.txt")},
        }
        result = {"type": "tool_result", "tool_use_id": f"t{n}", "content": output}
        lines += [
            {**base, "type": "user", "message": {"role": "user", "content": f"Check file {n}"}},
            {**base, "type": "assistant", "message": {"role": "assistant", "content": [use]}},
            {**base, "type": "user", "message": {"role": "user", "content": [result]}},
            {
                **base,
                "type": "assistant",
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"File {n} is fine."}],
                },
            },
        ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")


def main() -> None:
    figures = recall_figures()
    print(f"\n{'memory':12}{'mode':9}" + "".join(f"{f'R@{k}':>8}" for k in KS) + "  questions")
    for (kind, mode), by_k in sorted(figures.items()):
        cells = "".join(f"{statistics.fmean(by_k[k]):8.3f}" for k in KS)
        print(f"{kind:12}{mode:9}{cells}  {len(by_k[1])}")
    if "--no-latency" not in sys.argv:
        latency()


if __name__ == "__main__":
    main()
