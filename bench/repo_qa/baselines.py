"""Plain BM25 baselines of a question set: what a simple keyword search over the
repository's files finds (``bm25s``, English stop words, Snowball-stemmed), three ways."""

from __future__ import annotations

from pathlib import Path

from bench.repo_qa import HIT_K, QuestionSet, hit_at, is_noise, reciprocal_rank

WINDOW = 60
BASELINES = ("bm25_whole", "bm25_windows", "bm25_clean")
"""Whole files, 60-line windows, whole files without tests/examples/vendor."""


def bm25_baseline(qs: QuestionSet, root: Path) -> dict[str, float]:
    """Plain BM25 over every file matching the set's globs, three ways: whole files
    (``bm25_whole_*``), 60-line windows (``bm25_windows_*``) and whole files leaving out
    tests, examples, vendored code and release notes by the bench's path rule
    (``bm25_clean_*``)."""
    corpora: dict[str, tuple[list[str], list[str]]] = {b: ([], []) for b in BASELINES}
    seen: set[str] = set()
    for pattern in qs.source_globs:
        for path in sorted(root.rglob(pattern)):
            rel = path.relative_to(root).as_posix()
            if rel in seen or not path.is_file():
                continue
            if any(part.startswith(".") or part == "node_modules" for part in rel.split("/")):
                continue
            seen.add(rel)
            text = path.read_text(encoding="utf-8", errors="replace")
            lines = text.splitlines()
            for start in range(0, max(1, len(lines)), WINDOW):
                window = "\n".join(lines[start : start + WINDOW])
                _add(corpora["bm25_windows"], rel, f"{rel}\n{window}")
            _add(corpora["bm25_whole"], rel, f"{rel}\n{text}")
            if not is_noise(rel):
                _add(corpora["bm25_clean"], rel, f"{rel}\n{text}")
    figures = {}
    for prefix, (docs, owners) in corpora.items():
        hits, rr = _bm25_scores(qs, docs, owners)
        figures[f"{prefix}_hit@{HIT_K}"] = hits
        figures[f"{prefix}_mrr"] = rr
    return figures


def _add(corpus: tuple[list[str], list[str]], owner: str, text: str) -> None:
    corpus[0].append(text)
    corpus[1].append(owner)


def _bm25_scores(qs: QuestionSet, docs: list[str], owners: list[str]) -> tuple[float, float]:
    """Mean hit@5 and MRR@10 of ``bm25s`` over ``docs`` (each owned by a file), English stop
    words and Snowball stemming on both sides."""
    import bm25s
    import snowballstemmer

    if not docs:
        return 0.0, 0.0
    stem = snowballstemmer.stemmer("english")  # has stemWords, as PyStemmer's stemmer
    retriever = bm25s.BM25()
    corpus = bm25s.tokenize(docs, stopwords="en", stemmer=stem, show_progress=False)
    retriever.index(corpus, show_progress=False)
    hits, rr = [], []
    for question in qs.questions:
        tokens = bm25s.tokenize([question.q], stopwords="en", stemmer=stem, show_progress=False)
        ids, _ = retriever.retrieve(tokens, k=min(10, len(docs)), show_progress=False)
        files = [owners[i] for i in ids[0]]
        hits.append(hit_at(files, question.files))
        rr.append(reciprocal_rank(files, question.files))
    return sum(hits) / len(hits), sum(rr) / len(rr)
