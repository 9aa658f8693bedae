"""The prompt hook speaks only when an entry covers most of the prompt (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

from search_oracles import term_weights

from app.prompt_hook import BUDGET, MAX_RESULTS, choose, prompt_context
from engine.search.relevance import (
    measured_total,
    name_words,
    prompt_terms,
    relevant_hits,
)
from engine.search.scoring import QueryWeights
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of

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
    weights = term_weights(parts_of(memory).searcher.keyword, ["deploy", "billing", "banana"])
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
    assert relevant_hits(parts_of(memory).searcher.keyword, "deploy my kubernetes helm chart") == []


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


# --- newcomer phrasing on a small file-finder's docs (issue 34) ----------------------------

FINDER_DOCS = [
    ("docs/hidden.md", "Hidden files", "By default hidden files and directories are skipped."
     " Pass --hidden (-H) to search hidden files and directories as well."),
    ("docs/ignore.md", "Ignore files", "Paths matched by .gitignore and .ignore files are"
     " skipped; --no-ignore searches ignored paths as well."),
    ("docs/exec.md", "Command execution", "--exec (-x) runs a command for each search result;"
     " --exec-batch (-X) runs the command once with all results as arguments."),
    ("docs/types.md", "Filter by type", "--type f keeps regular files, --type d directories,"
     " --type l symbolic links and --type x executables."),
    ("docs/extension.md", "File extension", "--extension (-e) keeps results with the given"
     " file extension, for example -e md for markdown files."),
    ("docs/depth.md", "Search depth", "--max-depth limits how deep the directory traversal"
     " descends; --min-depth skips results above a depth."),
    ("docs/colors.md", "Colors", "Output is colored with LS_COLORS; --color never turns"
     " colors off, --color always keeps them in pipes."),
    ("docs/install.md", "Installation", "Install with cargo install fd-find, or from the"
     " package manager of your distribution."),
    ("src/walk.rs", "spawn_senders", "Walks the directory tree on parallel threads and sends"
     " every entry that matches the pattern to the receiver."),
    ("src/config.rs", "Config", "The search configuration: pattern, case sensitivity,"
     " hidden and ignore settings, maximum depth and the output colors."),
]  # fmt: skip


def fill_finder(memory: Memory) -> None:
    memory.add_many(
        [
            NewEntry(
                content=f"{title}: {text}",
                section_title=title,
                category="general",
                source="markdown",
                file_path=path,
                line_start=1,
            )
            for path, title, text in FINDER_DOCS
        ]
    )


def injected(root: Path, prompt: str) -> list[str]:
    block = hook(root, prompt)
    return [line.split("] ", 1)[1].split(" ", 1)[0] for line in block.splitlines()
            if line.startswith("- [")]  # fmt: skip


def test_newcomer_phrasing_finds_the_section(tmp_path: Path, memory: Memory) -> None:
    fill_finder(memory)
    # The words of asking ("how do I", "make it", "too") are not what the prompt is about.
    assert injected(tmp_path, "how do I make it search hidden files too")[0].startswith(
        "docs/hidden.md"
    )
    assert any(
        f.startswith("docs/exec.md")
        for f in injected(tmp_path, "Is there some way to run a command on each result?")
    )


def test_off_topic_and_nonsense_prompts_stay_silent(tmp_path: Path, memory: Memory) -> None:
    fill_finder(memory)
    for prompt in [
        "What is the capital of Australia?",
        "Write a haiku about autumn leaves.",
        "How do I make cold brew coffee at home?",
        "Recommend a science fiction novel for a long flight.",
        "qwxz plonk frabble snerg",
        "What does the Kubernetes liveness probe do?",
    ]:
        assert injected(tmp_path, prompt) == [], prompt


def test_a_single_shared_rare_word_is_not_a_match(memory: Memory) -> None:
    fill_finder(memory)
    keyword = parts_of(memory).searcher.keyword
    # "traversal" is in one entry only and weighs as much as a third of the prompt: even
    # with a lower share asked for, sharing that one word is no match ...
    assert relevant_hits(keyword, "the traversal of Peru", min_coverage=0.3) == []
    # ... while two words of the prompt together are
    found = relevant_hits(keyword, "the directory traversal", min_coverage=0.3)
    assert [h.hit.entry.file_path for h in found][:1] == ["docs/depth.md"]


def test_prompts_of_stop_words_only_stay_silent(tmp_path: Path, memory: Memory) -> None:
    fill_finder(memory)
    for prompt in ["how do I do it?", "what is this", "Where is it, and why?", "can you do that"]:
        assert prompt_terms(prompt) == [], prompt
        assert hook(tmp_path, prompt) == "", prompt


def test_prompt_terms_keep_one_form_of_each_word() -> None:
    assert prompt_terms("How do I search hidden files? Searching files too") == [
        "search",
        "hidden",
        "files",
    ]


ROUTER_NOTES = [
    ("src/middleware/basic-auth/index.ts", "basicAuth",
     "Checks the Authorization header against the configured username and password and "
     "answers 401 with a WWW-Authenticate header otherwise."),
    ("src/router/trie.ts", "TrieRouter", "Matches a route by walking a trie of path segments."),
    ("src/router/regexp.ts", "RegExpRouter", "Compiles every route into one regular expression."),
    ("docs/routing.md", "Routing", "A route may protect its handlers with any middleware."),
    ("src/helper/cookie/index.ts", "setCookie, deleteCookie",
     "Serialises a name and value with its options into a header of the response."),
    ("src/context.ts", "Context.header",
     "Sets a header on the response; set it again to replace it, or append to keep both: "
     "the response keeps every value set, and a cookie set through a header is kept too."),
]  # fmt: skip


def fill_router(memory: Memory) -> None:
    add_sections(memory, ROUTER_NOTES)


def add_sections(memory: Memory, notes: list[tuple[str, str, str]]) -> None:
    """Markdown sections: (file, title, text) each."""
    memory.add_many(
        [
            NewEntry(
                content=text,
                category="general",
                source="markdown",
                file_path=path,
                section_title=title,
                line_start=1,
            )
            for path, title, text in notes
        ]
    )


def test_an_entry_named_for_two_words_of_the_prompt_passes_without_the_others(
    memory: Memory,
) -> None:
    # "basic" and "auth" are only in the entry's path and title ("basicAuth" is one token
    # to the index); "protect" and "route" are elsewhere: two of four, which the
    # all-but-one rule alone refuses.
    fill_router(memory)
    found = relevant_hits(
        parts_of(memory).searcher.keyword, "How do I protect a route with basic auth?"
    )
    assert [h.hit.entry.file_path for h in found][:1] == ["src/middleware/basic-auth/index.ts"]
    assert set(found[0].named) == {"basic", "auth"}


def test_the_entry_named_for_the_prompt_comes_before_the_one_that_uses_its_words(
    memory: Memory,
) -> None:
    # The context's section repeats "set", "cookie" and "response"; the cookie helper is
    # named for them (setCookie in src/helper/cookie/).
    fill_router(memory)
    found = relevant_hits(
        parts_of(memory).searcher.keyword, "How do I set a cookie on the response?"
    )
    assert [h.hit.entry.file_path for h in found][:1] == ["src/helper/cookie/index.ts"]


def test_name_words_split_identifiers_and_paths() -> None:
    entry = NewEntry(
        content="x", file_path="src/flag_mutex.go", section_title="HTTPServer.setCookie"
    )
    assert {"http", "server", "set", "cooki", "flag", "mutex", "src", "go"} <= name_words(entry)


def test_name_words_keep_an_identifier_whole_as_well() -> None:
    # A prompt names an identifier as one word ("subscribeWithSelector" → one term): the
    # name holds it whole, beside its parts.
    entry = NewEntry(
        content="x", file_path="src/middleware/subscribeWithSelector.ts", section_title="Impl"
    )
    held = name_words(entry)
    assert {"subscrib", "selector", "subscribewithselector"} <= held


IDENTIFIER_NOTES = [
    ("docs/guide.md", "Recipes",
     "Listeners may call subscribeWithSelector to react to a selected slice; "
     "every listener sees the previous and the next selected value."),
    ("src/middleware/subscribeWithSelector.ts", "Impl",
     "Wraps subscribe: the listener runs when the selected value changes."),
]  # fmt: skip


def test_the_entry_named_for_an_identifier_of_the_prompt_comes_first(memory: Memory) -> None:
    add_sections(memory, IDENTIFIER_NOTES)
    found = relevant_hits(
        parts_of(memory).searcher.keyword,
        "How does subscribeWithSelector call the listener when the selected value changes?",
    )
    assert [h.hit.entry.file_path for h in found][:1] == ["src/middleware/subscribeWithSelector.ts"]


def fill_flags(memory: Memory) -> None:
    # "flag", "alias" and "help" are common here (21 entries of 51 each), "happens" is in
    # one entry, "collides" in none.
    texts = [f"Flag {i} prints its help line in the listing." for i in range(10)]
    texts += [f"Alias {i} shows up in the help screen." for i in range(10)]
    texts += [f"Flag {i} may take an alias of one letter." for i in range(10)]
    texts += [f"Caching note {i}: entries expire after a day." for i in range(19)]
    texts += ["What happens at startup: the config file is read first."]
    texts += ["A flag whose alias is taken by the help flag drops the clashing alias."]
    memory.add_many(
        [
            NewEntry(
                content=t,
                category="general",
                source="markdown",
                file_path=f"docs/n{i}.md",
                line_start=1,
            )
            for i, t in enumerate(texts)
        ]
    )


def test_a_word_the_memory_never_saw_is_left_out_among_enough_known_ones(memory: Memory) -> None:
    # "collides" is in no entry: it weighed the most, so the entry holding the three common
    # words covered a quarter of the prompt; one unseen word of five is left out.
    fill_flags(memory)
    found = relevant_hits(
        parts_of(memory).searcher.keyword,
        "What happens when a flag alias collides with the help flag?",
    )
    assert [h.hit.entry.file_path for h in found][:1] == ["docs/n50.md"]


def test_unseen_words_are_left_out_only_where_enough_known_words_remain() -> None:
    def total(terms: str, unseen: str) -> float:
        weights = {t: 2.0 if t in unseen.split() else 1.0 for t in terms.split()}
        return measured_total(
            QueryWeights(tuple(weights), weights, None, frozenset(unseen.split()))
        )

    assert total("happens flag alias collides help", "collides") == 4.0
    # Three known words left of four would need only two held: not left out.
    assert total("write limerick cat codes", "limerick") == 5.0
    # Two unseen words of five are more than a quarter: kept.
    assert total("happens flag alias collides help", "collides happens") == 7.0
