"""Issue 47's engine side: a hook stores and updates a note without loading the model,
and redacts a long text whole before a part of it is kept."""

from __future__ import annotations

from fakes import FakeEmbedder

from engine import Memory, NewEntry, Source

AWS_KEY = "AKIAZ7Q4LTSEXHPRWN3K"


def test_an_update_without_embed_leaves_the_vector_to_the_backlog(
    memory: Memory, fake_embedder: FakeEmbedder
) -> None:
    [added] = memory.add_many([NewEntry("first digest", source=Source.SESSION)], embed=False)
    calls = fake_embedder.calls

    updated = memory.update(added.entry.id, content="second digest, longer", embed=False)

    assert fake_embedder.calls == calls  # nothing embedded
    assert updated.id == added.entry.id and memory.require(updated.id).content.startswith("second")
    assert memory.vectors_waiting() == 1
    memory.embed_waiting()
    assert memory.vectors_waiting() == 0
    found = memory.search("second digest", mode="vector", limit=1).results
    assert [r.entry.id for r in found] == [updated.id]


def test_an_update_with_embed_clears_a_waiting_vector(memory: Memory) -> None:
    [added] = memory.add_many([NewEntry("a note waiting for its vector")], embed=False)
    memory.update(added.entry.id, content="a note embedded now")
    assert memory.vectors_waiting() == 0


def test_redacted_hides_private_blocks_and_secrets_in_a_text_of_any_length(
    memory: Memory,
) -> None:
    text = "x " * 20_000 + f"key {AWS_KEY} and <private>the password</private> end"

    out = memory.redacted(text)

    assert AWS_KEY not in out and "the password" not in out
    assert "[redacted: aws-access-token]" in out and "[redacted: private]" in out
    assert out.endswith(" end") and memory.redacted("") == ""
