"""An entry's vector is computed from its labels (title, category, keywords) and its text,
and the embedding cache keeps it under a key of both (engine/embedding/document.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fakes import FakeEmbedder

from engine.core.hashing import content_hash
from engine.core.models import Category, Entry, Source
from engine.embedding.document import document_key, document_text
from engine.services.entries import NewEntry
from engine.services.memory import Memory

NOTE = "Pass --no-cache when building in CI: the layer cache there is stale."
DISTRACTORS = [
    "The staging cluster sleeps at weekends.",
    "Release notes are written by the person who merges.",
    "Timestamps are stored in UTC and shown in local time.",
]


def entry(**fields: object) -> Entry:
    base = Entry(id="e1", content=NOTE, content_hash=content_hash(NOTE))
    return replace(base, **fields)  # type: ignore[arg-type]


def test_a_plain_note_is_embedded_from_its_text_alone() -> None:
    plain = entry()

    assert document_text(plain) == NOTE
    assert document_key(plain) == content_hash(NOTE)  # vectors cached before labels still fit


@pytest.mark.parametrize(
    ("fields", "head"),
    [
        (
            {
                "category": Category.GOTCHA,
                "keywords": ("docker", "ci build"),
                "source": Source.SESSION,
            },
            "gotcha — docker, ci build",
        ),
        (
            {"section_title": "Builds", "keywords": ("docker",), "source": Source.MANUAL},
            "Builds — docker",
        ),
        # A chunk opens with its heading path already: no title label, but its category.
        (
            {
                "section_title": "CI > Docker",
                "category": Category.ARCHITECTURE,
                "source": Source.MARKDOWN,
            },
            "architecture",
        ),
        # Sections merged into one chunk: its text opens with the first; the rest label it.
        (
            {
                "section_title": "cJSON > Caveats > Zero Character · cJSON > Caveats > "
                "Thread Safety · cJSON > Caveats > Case Sensitivity",
                "source": Source.MARKDOWN,
            },
            "Thread Safety · Case Sensitivity",
        ),
        # Analyser entries open with "<language> code: <name> in <path>".
        ({"category": Category.DISCOVERY, "keywords": ("build",), "source": Source.DISCOVERY}, ""),
    ],
)
def test_labels_of_each_kind_of_entry(fields: dict[str, object], head: str) -> None:
    labelled = entry(**fields)

    assert document_text(labelled) == (f"{head}\n{NOTE}" if head else NOTE)
    assert (document_key(labelled) == content_hash(NOTE)) == (not head)


def add_note_and_distractors(memory: Memory) -> str:
    memory.add_many([NewEntry(text) for text in DISTRACTORS])
    return memory.add(NOTE, category="gotcha", keywords=["docker"]).entry.id


def vector_ids(memory: Memory, query: str) -> list[str]:
    found = memory.search(query, mode="vector", limit=10, min_score=-1.0)  # the whole ranking
    return [r.entry.id for r in found.results]


def test_a_note_is_found_by_vector_through_a_keyword_its_text_lacks(memory: Memory) -> None:
    note = add_note_and_distractors(memory)

    assert vector_ids(memory, "docker")[0] == note


def test_editing_the_keywords_embeds_the_note_again(
    memory: Memory, fake_embedder: FakeEmbedder
) -> None:
    note = add_note_and_distractors(memory)
    before = fake_embedder.texts_embedded

    memory.update(note, keywords=["kubernetes"])

    assert fake_embedder.texts_embedded == before + 1
    assert vector_ids(memory, "kubernetes")[0] == note
    assert note not in vector_ids(memory, "docker")[:1]


def test_the_near_duplicate_check_and_the_add_embed_a_labelled_note_once(
    memory: Memory, fake_embedder: FakeEmbedder
) -> None:
    memory.add_many([NewEntry(text) for text in DISTRACTORS])
    before = fake_embedder.texts_embedded

    memory.add(NOTE, category="gotcha", keywords=["docker"])

    assert fake_embedder.texts_embedded == before + 1


@pytest.mark.slow
def test_labels_bring_a_short_note_closer_to_a_question_naming_them() -> None:
    """With the real model: a question in the words a note was filed under finds the
    labelled note's vector closer than the text's alone."""
    from engine.embedding.default import default_embedder

    model = default_embedder()
    note = entry(category=Category.GOTCHA, keywords=("docker",), source=Source.SESSION)
    query = model.embed_query("docker gotchas")
    plain, labelled = model.embed_documents([NOTE, document_text(note)])

    assert float(labelled @ query) > float(plain @ query) + 0.05
