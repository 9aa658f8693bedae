"""Guards every face passes content through before it is stored or shown.

Owns: secret detection and ``<private>`` redaction (:mod:`.privacy`, the one entry point;
gitleaks' maintained rules, vendored in ``rules/``, run on RE2 by :mod:`.ruleset`);
project files read and written safely (:mod:`.files`); text made safe to show on a
terminal, escape sequences neutralised (:mod:`.terminal`).
May import: :mod:`engine.core`.
"""
