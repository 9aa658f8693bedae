"""Documentation translated into another language, kept beside the original.

A project that translates its README or its docs site (``README.zh-CN.md`` beside
``README.md``, ``docs/ja/guide.md`` beside ``docs/guide.md`` or ``docs/en/guide.md``,
Docusaurus' ``i18n/<locale>/``) holds each page two or more times. The copies answer no
question the original does not, the embedding model reads English, and together they can
outnumber every other file of the memory. They are summarised, not indexed.

A name is a language tag when CPython's locale tables know it (:data:`locale.locale_alias`,
maintained with the C library's locale names): a language code (``ja``, ``pt``, ``zh``),
with a territory or script (``pt_BR``, ``zh-Hans``), a territory alone as projects write it
(``README_CN``), a language's English name (``README.german.md``), or a name written with no
Latin letter at all (``README.中文.md``, ``README.日本語.md``). English is never a translation:
it is the language the model reads. A tagged page or folder is a translation only beside its
original (a sibling without the tag, or an English folder beside it; for a tagged page, the
page without the tag in a folder above it counts too: ``doc/README-ja.md`` beside the root's
``README.md``), so a project written in one language alone keeps all of it; and a page
among a family of names whose tags mostly name no language (``gproc_ps.md`` among
``gproc_pool.md``, ``gproc_dist.md``) is a name, not a translation.
"""

from __future__ import annotations

import locale
import re
from functools import cache
from pathlib import Path

_DOC_PAGE = re.compile(r"\.(?:md|markdown|mdx|rst|txt|adoc)$", re.IGNORECASE)
_SEPARATOR = re.compile(r"[._-]")
_LATIN = re.compile(r"[A-Za-z]")
_I18N_FOLDERS = frozenset({"i18n", "l10n", "locales", "translations"})
_ENGLISH = frozenset({"en", "eng", "english"})


@cache
def _languages() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Language codes (2–3 letters), territory codes and language names of the locale tables."""
    codes: set[str] = set()
    territories: set[str] = set()
    names: set[str] = set()
    for key in locale.locale_alias:
        base = re.split(r"[.@]", key)[0]
        language, _, territory = base.partition("_")
        if not language.isalpha():
            continue
        if 2 <= len(language) <= 3:
            codes.add(language)
        elif not territory:
            names.add(language)
        if len(territory) == 2 and territory.isalpha():
            territories.add(territory)
    return frozenset(codes), frozenset(territories), frozenset(names)


def language_of(tag: str) -> str | None:
    """The language a file or folder name's tag names (its primary code, lower case), or
    ``None`` where the tag is no language: ``zh-CN`` → ``zh``, ``pt_BR`` → ``pt``, ``CN`` →
    ``cn``, ``中文`` → ``中文``, ``dev`` → ``None``."""
    if not _LATIN.search(tag):
        return tag if tag.strip() and not any(c.isdigit() for c in tag) else None
    codes, territories, names = _languages()
    primary, _, rest = tag.lower().replace("-", "_").partition("_")
    if not primary.isalpha():
        return None
    if primary in codes and (not rest or rest.isalpha()):
        return primary
    if not rest and (primary in names or (len(tag) == 2 and primary in territories)):
        return primary
    return None


def _foreign(tag: str) -> bool:
    language = language_of(tag)
    return language is not None and language not in _ENGLISH


def translation_of(root: Path, rel: str) -> str | None:
    """Where the doc page ``rel`` is a translation: the place to summarise (``README.ja.md``
    or ``docs/ja/``), or ``None`` for an original page, a page in English, or any other file."""
    if not _DOC_PAGE.search(rel):
        return None
    parts = rel.split("/")
    for depth, name in enumerate(parts[:-1]):
        if _foreign(name) and _beside_original(root, parts, depth):
            return "/".join(parts[: depth + 1]) + "/"
    name, dot, ext = parts[-1].rpartition(".")
    for cut in _SEPARATOR.finditer(name):  # README.zh-CN: the tag may hold a separator too
        stem, tag = name[: cut.start()], name[cut.end() :]
        if (
            stem
            and _foreign(tag)
            and _original_above(root, parts[:-1], f"{stem}{dot}{ext}")
            and not _named_family(root.joinpath(*parts[:-1]), name[: cut.end()], f"{dot}{ext}")
        ):
            return rel
    return None


def _named_family(folder: Path, prefix: str, suffix: str) -> bool:
    """Whether the pages of ``folder`` named ``prefix…suffix`` are a family of names rather
    than one page's translations: most of their tags name no language. edown writes an
    Erlang application's modules as ``doc/gproc_app.md``, ``doc/gproc_pool.md`` beside
    ``doc/gproc.md``, and among them ``gproc_ps.md`` and ``gproc_pt.md`` (a module each,
    not Pashto and Portuguese); ``README-dev.md`` alone beside ``README-ja.md`` is no family."""
    try:
        names = [p.name for p in folder.iterdir() if p.is_file()]
    except OSError:
        return False
    tags = [
        n[len(prefix) : -len(suffix)]
        for n in names
        if n.startswith(prefix) and n.endswith(suffix) and len(n) > len(prefix) + len(suffix)
    ]
    other = sum(1 for tag in tags if language_of(tag) is None)
    return other > len(tags) - other


def _original_above(root: Path, folders: list[str], original: str) -> bool:
    """Whether the page ``original`` is in the tagged page's folder or a folder above it:
    ``README.md`` at the root is the original of ``doc/README-ja.md`` (sharkdp/bat keeps
    its README's translations in ``doc/``)."""
    return any(
        root.joinpath(*folders[:depth], original).is_file() for depth in range(len(folders) + 1)
    )


def _beside_original(root: Path, parts: list[str], depth: int) -> bool:
    """Whether the language folder ``parts[depth]`` has its original: in a translations
    folder (``i18n/ja/``), the same page without the folder (``docs/guide.md`` for
    ``docs/ja/guide.md``), or an English folder beside it (``docs/en/``)."""
    if depth and parts[depth - 1].lower() in _I18N_FOLDERS:
        return True
    parent = root.joinpath(*parts[:depth])
    if parent.joinpath(*parts[depth + 1 :]).is_file():
        return True
    return any(
        (parent / name).is_dir() for name in _english_folders(parent) if name != parts[depth]
    )


def _english_folders(parent: Path) -> list[str]:
    try:
        names = [p.name for p in parent.iterdir() if p.is_dir()]
    except OSError:
        return []
    return [n for n in names if language_of(n) in _ENGLISH]
