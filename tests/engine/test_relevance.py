"""The prompt hook speaks only when an entry covers most of the prompt (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

from app.prompt_hook import BUDGET, MAX_RESULTS, choose, prompt_context
from engine.search.relevance import relevant_hits, term_weights
from engine.services.entries import NewEntry
from engine.services.memory import Memory

NOTES = [
    ("docs/deploy.md", "Deploys go out with make release; the release job tags the image."),
    ("docs/deploy.md", "Rolling back a deploy: run make rollback with the previous tag."),
    ("docs/billing.md", "The billing service retries failed webhooks three times."),
    ("docs/auth.md", "Sessions expire after thirty minutes; refresh tokens last a week."),
    ("CHANGELOG.md", "Release 2.0: deploys now tag the image with the git sha."),
    ("src/cache.py", "def warm_cache(): the cache is warmed at deploy time from the manifest."),
]


def fill(memory: Memory) -> None:
    items = [
        NewEntry(content=text, category="general", source="markdown", file_path=path, line_start=i)
        for i, (path, text) in enumerate(NOTES, start=1)
    ]
    memory.add_many(items)


def hook(root: Path, prompt: str) -> str:
    return prompt_context(json.dumps({"prompt": prompt, "cwd": str(root)}), root)


def test_rare_terms_weigh_more_and_unseen_terms_most(memory: Memory) -> None:
    fill(memory)
    weights = term_weights(memory.searcher.keyword, ["deploy", "billing", "banana"])
    assert weights["banana"] > weights["billing"] > weights["deploy"]


def test_a_naturally_phrased_question_finds_the_entry_that_answers_it(
    tmp_path: Path, memory: Memory
) -> None:
    fill(memory)
    out = hook(tmp_path, "How do I roll back a deploy to the previous tag?")
    assert "make rollback" in out


def test_prompts_about_something_else_inject_nothing(tmp_path: Path, memory: Memory) -> None:
    fill(memory)
    for prompt in ["What's a good recipe for banana bread?", "How do I center a div?",
                   "thanks", "Explain TCP versus UDP please"]:  # fmt: skip
        assert hook(tmp_path, prompt) == "", prompt


def test_a_shared_common_word_is_not_enough(memory: Memory) -> None:
    fill(memory)
    # "deploy" is in half the memory; the rest of the prompt is unknown to it
    assert relevant_hits(memory.searcher.keyword, "deploy my kubernetes helm chart") == []


def test_release_notes_only_when_the_prompt_asks_about_changes(
    tmp_path: Path, memory: Memory
) -> None:
    fill(memory)
    assert "CHANGELOG.md" not in hook(tmp_path, "do deploys tag the image with the git sha")
    assert "CHANGELOG.md" in hook(tmp_path, "what changed in release 2.0 about the git sha tag")


def test_one_entry_per_file_at_most_three_within_the_budget(memory: Memory) -> None:
    fill(memory)
    steps = [
        NewEntry(
            content=f"Deploy checklist step {i}: " + "verify the deploy dashboards " * 40,
            category="general",
            source="markdown",
            file_path="docs/checklist.md" if i < 4 else f"docs/other{i}.md",
            line_start=i + 1,
        )
        for i in range(6)
    ]
    memory.add_many(steps)
    results = [r for r, _ in memory.relevant("deploy checklist step dashboards verify")]
    chosen = choose(results, "deploy checklist")
    paths = [r.entry.file_path for r in chosen if r.entry.file_path]
    assert len(results) >= 4
    assert len(paths) == len(set(paths)) and len(chosen) == MAX_RESULTS
    block = hook(memory.paths.root, "deploy checklist step dashboards verify")
    snippets = [line.split("): ", 1)[1] for line in block.splitlines() if line.startswith("- [")]
    assert snippets and sum(len(s) for s in snippets) <= BUDGET + len(snippets)
