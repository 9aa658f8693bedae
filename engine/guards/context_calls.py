"""Secrets handed to code: a call or constructor that names what it is given (issue 48).

A credential in code is not always assigned to a name: it is passed. Three forms, each
written once for every language that shares it:

- a call whose quoted argument names a credential, the secret the quoted argument after
  it: PHP's ``define('DB_PASSWORD', 'x')``, ``setenv``/``os.Setenv``/``std::env::set_var``/
  ``Environment.SetEnvironmentVariable``, ``os.environ.setdefault``, Java's
  ``System.setProperty("…password", "x")``, ``config.set('section', 'password', 'x')``,
  ``ENV.store``, ``viper.Set`` (the name is the vocabulary of
  :mod:`.context_words`, so ``define('AUTH_KEY', …)`` asks a generated value);
- a user and its password passed together to what authenticates: a call or constructor
  named for auth, login or credentials (``HTTPBasicAuth('u', 'x')``,
  ``req.SetBasicAuth``, ``db.auth``, ``smtp.login``, ``Credentials.basic``,
  ``new NetworkCredential``: Nosey Parker's ``np.generic.7`` takes that last one alone),
  or a parameter so named given a pair (``auth=("u", "x")``, ``basic_auth=(…)``,
  ``auth: ['u', 'x']``): the password is the second;
- a name declared with its type, or given a literal through what makes a string of it,
  the literal its value: Rust's ``const API_TOKEN: &str = "x"`` and ``String::from("x")``,
  Kotlin's, Swift's, TypeScript's and Python's ``password: String = "x"``, Go's ``var
  apiKey string = "x"``, Java's ``new String("x")``, pydantic's ``SecretStr("x")``;
- a call named for a credential given one literal, generated-looking (reqwest's
  ``.bearer_auth("…")``, ``setApiKey("…")``, ``new Token("…")``), unless it is named for
  looking one up or checking it (``get_password(…)``, ``verify_token(…)``).

Both ask a literal, quoted, without a blank in it: a name, a call or a reference in the
password's place (``auth=(user, password)``, ``getenv('X')``) is code, not a secret.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import re2

from engine.guards.context_values import plausible, random_token
from engine.guards.context_words import KEY, NAME, PAIR, QUOTED, WORDS, keyed, public

_LITERAL = r"(?:\"[^\"\n]{1,100}\"|'[^'\n]{1,100}')"
_KEYWORD = r"(?:\w{1,30}[ \t]*=[ \t]*)?"
"""A keyword argument's name (``login='ci'``, ``password='x'``)."""
_AUTHENTICATES = r"[\w.$]*?(?:auth(?:enticat(?:e|ion|or))?|logon|signin|" + PAIR + r")"
"""What a call or a parameter that authenticates is named: ``HTTPBasicAuth``,
``SetBasicAuth``, ``PasswordAuthentication``, ``db.auth``, ``ftp.login``,
``NetworkCredential``, ``UsernamePasswordCredentials``, ``http_auth``."""


_NAMED = re2.compile(r"(?i)" + NAME)
"""A value that is itself a credential's name (``("user_password", "admin_password")``,
a tuple of names): not a secret."""


def _literal(value: str) -> bool:
    return " " not in value


_LOOKS_UP = re2.compile(
    r"(?i)^(?:get|find|lookup|load|read|fetch|has|is|check|verify|validate|hash|compare|remove"
    r"|delete|del|clear|revoke|mask|redact)"
)
"""What a call named for a credential does when it is not given one: it looks one up,
checks or removes it (``get_password('jira')``, ``verify_token(…)``, ``hash_password(…)``)."""


def _given(m: Any, value: str) -> bool:
    """The one literal given to a call named for a credential, where it looks generated
    (a name for one, a label or a field's name is a word)."""
    name = m.group("key").rsplit(".", 1)[-1].lstrip("$_")
    if _LOOKS_UP.match(name) or public(name):
        return False
    return _literal(value) and not _NAMED.fullmatch(value) and random_token(value, 16)


CALL_RULES: tuple[tuple[str, Any, Callable[[Any, str], bool]], ...] = (
    (
        "call-secret",
        # The first quoted argument naming a credential (the second after a section's,
        # as configparser's set(section, option, value)), then the quoted argument after
        # it on the same line (a list of names across lines is no call).
        re2.compile(
            r"(?i)\([ \t]*(?:\r?\n[ \t]*)?(?:" + _LITERAL + r"[ \t]*,[ \t]*)?"
            r"[\"'](?P<key>" + NAME + r")[\"'][ \t]*,[ \t]*(?:" + QUOTED + r")[ \t]*[,)]"
        ),
        lambda m, value: _literal(value) and not _NAMED.fullmatch(value) and keyed(m, value),
    ),
    (
        "call-secret",
        # A user and its password passed to what authenticates: a call or constructor
        # named for it, or a parameter so named given a pair.
        re2.compile(
            r"(?i)(?:^|[^\w.$])(?P<key>" + _AUTHENTICATES + r")(?:\.(?:basic|digest))?"
            r"(?:[ \t]*\(|[\"']?[ \t]*(?:=|:|=>)[ \t]*[(\[])[ \t]*"
            + _KEYWORD
            + _LITERAL
            + r"[ \t]*,[ \t]*"
            + _KEYWORD
            + r"(?:"
            + QUOTED
            + r")[ \t]*[,)\].]"
        ),
        lambda m, value: _literal(value) and plausible(value),
    ),
)
"""(kind, expression on RE2, check of the match and its value) of the call rules."""
_TYPE = r"(?:[ \t]*:[ \t]*&?(?:'\w+[ \t]+)?[\w.:<>\[\]?]{1,60}|[ \t]+\*?[\w.\[\]]{1,40})"
"""A type declared between a name and its value: Rust's ``: &'static str``, Kotlin's,
Swift's, TypeScript's and Python's ``: String``, ``: Optional[str]``; Go's ``string``."""
_STRING_OF = (
    r"(?:new[ \t]+String|String\.valueOf|(?:Secret(?:String|Box)?|String|Zeroizing)::(?:from|new)"
    r"|Some|SecretStr|SecretString|SecureString)[ \t]*\([ \t]*"
)
"""What makes a string (or a secret's wrapper) of the literal it is given."""
CALL_RULES += (
    (
        "config-secret",
        re2.compile(
            r"(?i)(?:^|[^A-Za-z0-9_.\-])"
            + KEY
            + r"(?:"
            + _TYPE
            + r"[ \t]*=[ \t]*(?:"
            + _STRING_OF
            + r")?|[ \t]*:?=[ \t]*"
            + _STRING_OF
            + r")(?:"
            + QUOTED
            + r")"
        ),
        lambda m, value: _literal(value) and keyed(m, value),
    ),
    (
        "call-secret",
        # A call or method named for a credential given one literal, which is what it
        # is named for: reqwest's ``.bearer_auth("…")``, ``setApiKey("…")``,
        # ``.token("…")``, ``new Token("…")``.
        re2.compile(
            r"(?i)(?:^|[^\w$])(?P<key>[\w.$]*?(?:" + WORDS + r"))[ \t]*\([ \t]*(?:" + QUOTED + r")"
            r"[ \t]*\)"
        ),
        _given,
    ),
)
