"""Guards every face passes content through before it is stored or shown.

Owns: secret detection and ``<private>`` redaction (:mod:`.privacy`, the one entry point;
gitleaks' maintained rules, vendored in ``rules/``, run on RE2 by :mod:`.ruleset`;
Nosey Parker's, vendored in ``rules/noseyparker/``, by :mod:`.noseyparker`; values a
key, flag, header, table or sentence names a credential by :mod:`.context`,
:mod:`.context_values` and :mod:`.tables`);
project files read and written safely (:mod:`.files`); text made safe to show on a
terminal, escape sequences neutralised (:mod:`.terminal`).
May import: :mod:`engine.core`.
"""
