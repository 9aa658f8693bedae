"""Credentials written in sentences: the ``prose-secret`` rules of
:mod:`engine.guards.context` (issue 48).

A sentence names a credential and gives its value (``the admin password is …``, ``the
password for prod: …``, ``… as the password``, ``… is the root password.``); a
credential word, or a directive whose name ends in one, is followed by its value (``use
the password …``, ``we set requirepass … in redis.conf``, ``api key <token> for …``,
``admin — pw …``); ``set the password to …``; a user and its password follow the word
naming both, after a colon or a linking verb (``credentials: admin / …``, ``login
deploy/…``, ``the db creds are etl/…``); one logs in as a user with it (``log in to
Jenkins as ci with …``); a password stated in French, German, Spanish, Portuguese,
Italian, Dutch, Polish or Russian (``le mot de passe est …``, ``das Passwort lautet …``)
or in Chinese, Japanese or Korean (``密码是 …``, ``パスワードは …``). A
sentence's words are ordinary words as often as names of credentials, so each value must
look chosen or generated, not be a word, a name with a number or a path. Every
expression runs on RE2.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import re2

from engine.guards.context_values import name_with_number, plausible, random_token
from engine.guards.context_words import PAIR, public


def _linked(m: Any, value: str) -> bool:
    """``the password is x``, ``the password for prod: x`` (without ``for prod`` the
    colon is a key's, and config-secret decides); a colon after a clause (``a passphrase
    to unlock the key for user: …``) introduces more than a value."""
    colon = m.group("colon") is not None
    if colon and (len(m.group("qualified").split()) > 3 or " " in value):
        return False
    return _prose(m, value)


def _prose(m: Any, value: str) -> bool:
    # In a sentence "secret" is as often a Kubernetes Secret as a credential.
    if m.group("key").lower().startswith("pass"):
        return plausible(value)
    return random_token(value, 10) or _password_shaped(value)


_DIGIT_RUN = re2.compile(r"\d+")


def _password_shaped(value: str) -> bool:
    """Letters and digits with a symbol a person types into a password (``Gd4#rK9m``),
    or both cases with digits in two places (``8M8wFWpOF``, a sentence's ``!`` trimmed);
    not a symbol that joins parts (``Ctrl+Alt+F4``, ``user@host1``, ``v1.2-rc3``), one
    run of digits in a word (``Base64Url``), nor a name with a number: what a
    sentence's key "is" when a person chose it."""
    if len(value) < 8 or not plausible(value) or name_with_number(value):
        return False
    if not (any(c.isalpha() for c in value) and any(c.isdigit() for c in value)):
        return False
    if any(not (c.isalnum() or c in "._-/+:@~") for c in value):
        return True
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return mixed and len(_DIGIT_RUN.findall(value)) >= 2


def _login(m: Any, value: str) -> bool:
    """The value one logs in with: a password-like one that is not a name with a number
    (``with sso2``, ``with admin123``) and holds a symbol or looks generated (letters
    and digits alone); ``with id_rsa``, ``with ssh-ed25519``, ``with 2FA-enabled`` name a
    thing."""
    if not plausible(value) or name_with_number(value):
        return False
    if value.isalnum():
        return random_token(value, 10)
    return any(not (c.isalnum() or c in "._-/") for c in value)


_SENTENCE_KEY = (
    r"(?P<key>password|passphrase|passcode|passwd|secret|token"
    r"|(?:api|access|secret|private|signing|encryption|license|admin|root)?[ \t-]?key"
    r"|credentials?|creds)"
)
_LINK = r"(?:is|was|are|were|reads|is now|is set to|set to|will be|would be|remains)"
_DIRECT_KEY = (
    r"(?P<key>password|passphrase|passcode|pwd?"
    r"|(?:[A-Za-z0-9]+[_.]?)+?(?:password|passwd|passphrase|passcode|pwd|pw|pass|auth|secret)"
    r"|(?:api|access|secret|private|license|encryption|master|admin|root|client|app|service"
    r"|deploy|bot|auth|bearer|refresh|session|registration|webhook)[ \t_\-]?(?:key|token|secret)"
    r"|apikey|token)"
)
"""What names the value right after it in a sentence: a password word alone, or a name
ending in a credential word (a directive: ``requirepass``, ``rootpw``, ``auth_pass``), or
a key or token named with what it is for (``api key``, ``access token``), or ``pw`` and
``pwd``, which abbreviate nothing else (``admin — pw …``); not ``key``,
``secret``, ``pass`` or ``passwd`` alone (a key id, a Kubernetes Secret, the verb, the
file), nor a name joined by ``-`` (a command: ``reset-password NAME``)."""
_ENGLISH = frozenset(
    ("bypass", "compass", "surpass", "trespass", "encompass", "overpass", "underpass", "oauth")
)
"""Words that end in a credential word and are none."""
_PASSWORD_ENDINGS = ("password", "passwd", "passphrase", "passcode", "pwd", "pw", "pass")


def _direct(m: Any, value: str) -> bool:
    """A value right after the word naming it, as :func:`_set_to` takes it; after a
    password word an unquoted one (with a digit, which the expression asks) must not be a
    name with a number either: ``password and/or``, ``password sha256_crypt``,
    ``server-01``."""
    if not _set_to(m, value):
        return False
    named = _password_key(m.group("key").lower()) and m.group("bare") is not None
    return not (named and name_with_number(value))


def _set_to(m: Any, value: str) -> bool:
    """``set the password to x``: the verb names it a value, a password-like one after a
    password word, a generated one after a key, token, secret or auth."""
    key = m.group("key").lower()
    if key in _ENGLISH or public(key):
        return False
    return plausible(value) if _password_key(key) else random_token(value, 16)


def _password_key(key: str) -> bool:
    """Whether the (lowercase) word that names a value names a password."""
    return key.endswith(_PASSWORD_ENDINGS) or key == "masterauth"


_FOREIGN_KEY = (
    r"(?P<key>mot[ \t]+de[ \t]+passe|passwort|kennwort|contrase(?:ñ|n)a|palabra[ \t]+clave"
    r"|senha|wachtwoord|has(?:ł|l)o|пароль)"
)
"""The password in French, German, Spanish, Portuguese, Dutch, Polish and Russian
(Italian's is ``password``: its own rule)."""
_FOREIGN_OF = (
    r"(?:d'|(?:de(?:[ \t]+la)?|du|des|pour|f(?:ü|ue)r|vom|von|zum|zur|der|del|para|do|da|dos"
    r"|das|no|na|per|di|della|dello|dei|van|voor|dla|от|для|к)[ \t]+)"
)
"""What a password is of or for: ``du compte root``, ``für den Router``, ``del servidor``."""
_FOREIGN_LINK = (
    r"(?:est|était|etait|sera|reste|ist|lautet|lautete|war|wird|bleibt|es|era|será|sigue"
    r"|é|è|sarà|is|was|luidt|wordt|blijft|jest|to|это|—|–)"
)
_FOREIGN_NOW = r"(?:maintenant|désormais|jetzt|nun|ahora|agora|ora|nu|teraz|toujours|noch)"


def _foreign(m: Any, value: str) -> bool:
    """A password a sentence in another language states: after a colon, one word that a
    clause of three words or fewer names (``Passwort für den Router: …``)."""
    qualified = m.group("qualified") or ""
    if m.group("colon") is not None and (len(qualified.split()) > 4 or " " in value):
        return False
    return plausible(value)


_CJK_KEY = r"(?P<key>密码|密碼|口令|パスワード|暗証番号|비밀번호|암호)"
"""The password in Chinese (simplified, traditional), Japanese and Korean."""
_CJK_LINK = r"[ \t]*(?:是|为|為|は|が|：|:|은|는|이|가)[ \t　]*"
"""What states it: Chinese ``是``/``为``, Japanese ``は``/``が``, Korean ``은``/``는``, a
colon (full-width too)."""
_ASCII_VALUE = (
    r"(?:\"(?P<dq>[^\"\n]{1,100})\"|「(?P<value>[^」\n]{1,100})」|(?P<bare>[!#-&(-_a-~]{1,100}))"
)
"""A value in a sentence of those scripts: quoted, in Japanese brackets, or a run of
printable ASCII, which ends where the sentence's own script goes on."""
PROSE_RULES: tuple[tuple[str, Any, Callable[[Any, str], bool]], ...] = (
    (
        "prose-secret",
        re2.compile(
            r"(?i)\b"
            + _SENTENCE_KEY
            + r"(?:(?P<qualified>[ \t]+(?:for|of|on|to|in)[ \t]+[\w .'\-]{1,40}?)(?P<colon>[ \t]*:)"
            r"|(?:[ \t]+(?:for|of|on|to|in)[ \t]+[\w .'\-]{1,40}?)?[ \t]+"
            + _LINK
            + r")[ \t]+(?:now[ \t]+|still[ \t]+|simply[ \t]+)?"
            r"(?:\"(?P<dq>[^\"\n]{1,100})\"|'(?P<sq>[^'\n]{1,100})'|`(?P<value>[^`\n]{1,100})`"
            r"|(?P<bare>[^\s\"'`]{1,100}))"
        ),
        _linked,
    ),
    (
        "prose-secret",
        # The same in another language: "le mot de passe du compte root est …", "das
        # Passwort für den Router lautet …", "la contraseña es …", "a senha é …",
        # "het wachtwoord is …", "hasło to …", "Mot de passe : …".
        re2.compile(
            r"(?i)(?:^|[^\w\-])"
            + _FOREIGN_KEY
            + r"(?:(?P<qualified>[ \t]+"
            + _FOREIGN_OF
            + r"[^\n:.;,]{1,40}?)?(?P<colon>[ \t]*:)|(?:[ \t]+"
            + _FOREIGN_OF
            + r"[^\n:.;,]{1,40}?)?[ \t]+"
            + _FOREIGN_LINK
            + r")[ \t]+(?:"
            + _FOREIGN_NOW
            + r"[ \t]+)?(?:\"(?P<dq>[^\"\n]{1,100})\"|'(?P<sq>[^'\n]{1,100})'"
            r"|`(?P<value>[^`\n]{1,100})`"
            # French and German quotation marks: « … », „…“.
            r"|(?:«[ \t]?|„)?(?P<bare>[^\s\"'`«»„“”]{1,100}))"
        ),
        _foreign,
    ),
    (
        "prose-secret",
        # "测试环境的密码是 …", "パスワードは … です", "비밀번호는 … 입니다".
        re2.compile(_CJK_KEY + _CJK_LINK + _ASCII_VALUE),
        lambda m, value: plausible(value),
    ),
    (
        "prose-secret",
        # Italian's "la password del database è …": the English word, its verb.
        re2.compile(
            r"(?i)(?:^|[^\w\-])(?P<key>password)(?:[ \t]+(?:di|del|della|dello|dei|per)[ \t]+"
            r"[^\n:.;,]{1,40}?)?[ \t]+(?:è|era|sarà)[ \t]+(?:ora[ \t]+)?"
            r"(?:\"(?P<dq>[^\"\n]{1,100})\"|'(?P<sq>[^'\n]{1,100})'|`(?P<value>[^`\n]{1,100})`"
            r"|(?:«[ \t]?)?(?P<bare>[^\s\"'`«»]{1,100}))"
        ),
        lambda m, value: plausible(value),
    ),
    (
        "prose-secret",
        re2.compile(
            r"(?i)\b"
            + _SENTENCE_KEY
            + r"[ \t]+(?:\"(?P<dq>[^\"\n]{1,100})\"|`(?P<value>[^`\n]{1,100})`)"
        ),
        _prose,
    ),
    (
        "prose-secret",
        # The word, or a directive named for it, and its value right after it: "use the
        # password P@ss…", "we set requirepass … in redis.conf", "api key <token> for …".
        re2.compile(
            r"(?i)(?:^|[^\w\-.$%{<])"
            + _DIRECT_KEY
            + r"[ \t]+(?:(?:--?|–|—)[ \t]+)?(?:\"(?P<dq>[^\"\n]{1,100})\"|'(?P<sq>[^'\n]{1,100})'"
            r"|`(?P<value>[^`\n]{1,100})`"
            r"|(?P<bare>[^\s\"'`=:\-\d][^\s\"'`\d]*\d[^\s\"'`]*|\d[^\s\"'`]*))"
        ),
        _direct,
    ),
    (
        "prose-secret",
        # A user and the password after the word naming both: "credentials: admin / …",
        # "login deploy/…", "credentials for the staging dashboard: admin / …" (what
        # they are for said before a colon), "staging db creds are etl_ro/…" (a linking
        # verb, as the sentence rule takes one: every word of PAIR with every verb),
        # "login with admin/…".
        re2.compile(
            r"(?i)\b(?P<key>" + PAIR + r")"
            r"(?:[ \t]+(?:for|of|on|to|in)[ \t]+[\w .'\-]{1,40}?(?:[ \t]*:|[ \t]+" + _LINK + r")"
            r"|[ \t]*:?|[ \t]+" + _LINK + r"|[ \t]+(?:with|using))"
            r"[ \t]+[\w.@\\\-]{1,64}[ \t]*[/:][ \t]*"
            r"(?:\"(?P<dq>[^\"\n]{1,100})\"|'(?P<sq>[^'\n]{1,100})'|`(?P<value>[^`\n]{1,100})`"
            r"|(?P<bare>[^\s\"'`/][^\s\"'`]{0,99}))"
        ),
        lambda m, value: plausible(value) and not name_with_number(value),
    ),
    (
        "prose-secret",
        # "set the admin password to …", "change your passphrase for bob to …".
        re2.compile(
            r"(?i)\b(?P<set>set|sets|setting|change[sd]?|changing|reset|resets|update[sd]?|updating)"
            r"[ \t]+(?:(?:the|a|an|your|its|his|her|their|our|my|this|that)[ \t]+)?"
            r"(?:[\w\-]+[ \t]+)?"
            + _DIRECT_KEY
            + r"(?:[ \t]+for[ \t]+[\w.@'\-]{1,40}?)?[ \t]+to[ \t]+(?:\"(?P<dq>[^\"\n]{1,100})\""
            r"|'(?P<sq>[^'\n]{1,100})'|`(?P<value>[^`\n]{1,100})`|(?P<bare>[^\s\"'`\-][^\s\"'`]{0,99}))"
        ),
        _set_to,
    ),
    (
        "prose-secret",
        re2.compile(
            r"(?i)(?:^|[\s(])(?:\"(?P<dq>[^\"\n]{1,100})\"|`(?P<value>[^`\n]{1,100})`"
            r"|(?P<bare>[^\s\"'`]{6,100}))[ \t]+as[ \t]+(?:the|a|your|their|its)?[ \t]*"
            r"(?:[\w\-]+[ \t]+)?(?P<key>password|passphrase)\b"
        ),
        lambda m, value: plausible(value),
    ),
    (
        "prose-secret",
        # "… is the root password." where the word ends its clause ("x is the password
        # hash" names another thing).
        re2.compile(
            r"(?i)(?:^|[\s(])(?:\"(?P<dq>[^\"\n]{1,100})\"|`(?P<value>[^`\n]{1,100})`"
            r"|(?P<bare>[^\s\"'`]{6,100}))[ \t]+(?:is|was)[ \t]+(?:the|a|your|their|its|our|my)"
            r"[ \t]+(?:[\w\-]+[ \t]+)?(?P<key>password|passphrase)(?:[ \t]*(?:[.,;:!)]|\r?\n|$)"
            r"|[ \t]+(?:for|of|to|on|in|and|but|so|here|now)\b)"
        ),
        lambda m, value: plausible(value),
    ),
    (
        "prose-secret",
        # "log in as admin with …", "sign in to Grafana as ops using …": logging in as a
        # user names what it is done with.
        re2.compile(
            r"(?i)\b(?:log(?:ged|ging|s)?|sign(?:ed|ing|s)?)[ \t]*(?:in|on)(?:to)?\b"
            r"[^\n.;:]{0,60}?[ \t]as[ \t]+[\w.@\\\-]{1,64}[ \t]+(?:with|using)[ \t]+"
            r"(?:(?:the|a)[ \t]+)?(?:\"(?P<dq>[^\"\n]{1,100})\"|'(?P<sq>[^'\n]{1,100})'"
            r"|`(?P<value>[^`\n]{1,100})`|(?P<bare>[^\s\"'`\-][^\s\"'`]{0,99}))"
        ),
        _login,
    ),
)
"""(kind, expression on RE2, check of the match and its value) of the sentence rules, in
the order :data:`engine.guards.context.CONTEXT_RULES` runs them."""
