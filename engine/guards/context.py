"""Secrets by their context: what names a value a credential, in any syntax (issue 48).

Shape rules (:mod:`.ruleset`, :mod:`.noseyparker`) find a token by what it looks like; a
password chosen by a person looks like anything. Here the context decides: a key, a
command-line flag, an HTTP header, a markdown table's column or a sentence names a
credential, and the value there passes :mod:`.context_values` (not a placeholder, a
reference, code or an everyday word). Forms, each written once for every syntax that
shares it:

- ``config-secret``: a key whose name ends in a credential word (``password``,
  ``passwd``, ``pwd``, ``secret``, ``token``, ``auth``, ``key``, ``requirepass``,
  ``masterauth``…) assigned with ``=``, ``:``, ``:=`` or ``=>`` (INI, YAML, TOML, JSON,
  ``.properties``, ``.env``, XML attributes, code, headers such as ``X-Api-Key:``), as
  the only other word of a configuration line (``requirepass …``, redis, nginx, pg), as
  a subscript's (``ENV['…'] = …``, ``$ENV{…} = …``), as an HTTP header named for a key
  (``x-functions-key: …``, ``Ocp-Apim-Subscription-Key: …``), as
  an XML element's text, or in the value field beside a name or key field naming it
  (``<add key="…Password" value="…"/>``, ``{"key": "api_key", "value": …}``,
  ``<entry key="db.password">…</entry>``), as a Terraform variable's default (``variable
  "db_password" { … default = "…" }``), a YAML block scalar's next line (``password:
  |``) or an assignment quoted whole, up to its closing quote (systemd's
  ``Environment="DB_PASSWORD=…"``, a compose file's ``- "API_TOKEN=…"``);
- ``pgpass-password``: a ``.pgpass`` line (``host:port:db:user:password``), alone or
  quoted whole (``echo '…' >> ~/.pgpass``);
- ``flag-secret``: a flag naming a credential, glued or spaced (``--password x``,
  ``--api-key=x``; Windows' ``/password:x`` is a key and its value), ``-p`` glued to its
  value beside a ``-u`` user flag (``mysql -u root -pX``; ``/p:`` beside ``/u:``), a
  tool's own password flag (``sshpass -p``, ``redis-cli -a``, ``ldapsearch -w``,
  ``sqlcmd -P``, ``ssh-keygen -N``…; mysql's ``-pX`` alone), a value piped into a
  command that reads a credential on its standard input (``echo x | docker login
  --password-stdin``, ``| sudo -S``, ``| chpasswd``) or given one by a here-string, a
  value a command sets by its name (``aws configure set aws_secret_access_key …``,
  ``git config github.token …``, ``setx``, ``--name db-password --value …``, ``gh
  secret set NAME --body …``), redis' ``AUTH`` at its prompt, a
  password where the command says what its argument is (``htpasswd -b``,
  ``ConvertTo-SecureString 'x'``, Windows' ``net use`` and ``net user``), and a password
  joined to its user (Samba's ``-U user%x``, Oracle's ``sqlplus user/x@db``);
- ``http-authorization``: an ``Authorization`` header with any scheme (Basic, Digest,
  Token, a custom one) or none, written as a header or as a name and a value field
  (HAR, Postman);
- ``sql-password``: a statement that sets a password, in every dialect (MySQL's and
  Oracle's ``IDENTIFIED [WITH plugin] BY 'x'``, Oracle's unquoted ``IDENTIFIED BY x``,
  ``[WITH] [ENCRYPTED] PASSWORD [=] 'x'`` in ``CREATE``/``ALTER USER``, ``ROLE`` or
  ``LOGIN``, SQL Server's ``BY PASSWORD = N'x'`` and ``sp_addlogin 'name', 'x'``,
  MariaDB's ``USING PASSWORD('x')``, ``SET PASSWORD [FOR …] = 'x'``, Db2's ``CONNECT TO
  db USER name USING x``);
- ``prose-secret`` (:mod:`.context_prose`): a sentence (``the admin password is …``,
  ``the staging key was …``, ``the password for prod: …``, ``… as the password``, ``… is
  the root password.``), a credential word or a directive whose name ends in one followed
  by its value (``use the password …``, ``we set requirepass … in redis.conf``, ``api key
  <token> for …``), ``set the password to …``, a user and its password after the word
  naming both (``credentials: admin / …``, ``login deploy/…``), and what one logs in as a
  user with (``log in to Jenkins as ci with …``);
- ``table-secret``: a table cell under a header naming a credential: markdown's, mysql's
  and psql's bordered output (:func:`.tables.table_secrets`), CSV and TSV
  (:func:`.tables.delimited_secrets`);
- ``cookie-secret``: a cookie named for a session or a credential (``JSESSIONID``,
  ``connect.sid``, ``auth_token``) in a ``Cookie:``/``Set-Cookie:`` header (or a
  ``Set-Cookie`` value alone, its attributes after it), curl's ``-b``/``--cookie`` or
  ``document.cookie`` (:func:`cookie_secrets`), and a value itsdangerous signed (Flask's
  session);
- ``password-hash``: crypt(3) and PHC strings (``$apr1$``, ``$y$``, ``$argon2id$``…),
  Django/passlib hashes and LDAP ``{SSHA}`` values (htpasswd, ``/etc/shadow``), MySQL's
  ``mysql_native_password`` (``*`` and 40 uppercase hex digits) and a pwdump line's LM
  and NT hashes (``user:RID:LM:NT:::``);
- ``call-secret`` (:mod:`.context_calls`): a call whose quoted argument names a
  credential given the next one (``define('DB_PASSWORD', …)``, ``setenv``,
  ``System.setProperty``), and a user and its password passed to what authenticates
  (``HTTPBasicAuth('u', …)``, ``auth=("u", …)``, ``db.auth``, ``smtp.login``);
- ``recovery-codes`` and ``seed-phrase`` (:mod:`.context_lists`): a list after the words
  naming it, of one-time codes (``recovery codes:`` and four codes or more of one shape)
  or of a wallet's words (``seed phrase:`` and twelve words or more);
- ``private-key``: keys not in PEM armour: a PuTTY ``.ppk`` file's private lines, a JSON
  Web Key's private members, and base64 DER of a private key or a PKCS#12 bundle.

Every expression runs on RE2, so each is linear in the text whatever the text. A match
whose value is rejected is looked inside (:func:`_inside`): what a rule took for a value
may hold a key and a value of its own (``otpauth://…?secret=…`` is ``otpauth:``'s value).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import re2

from engine.guards.context_calls import CALL_RULES
from engine.guards.context_cookies import cookie_secrets
from engine.guards.context_lists import LIST_RULES
from engine.guards.context_prose import PROSE_RULES
from engine.guards.context_values import plausible, random_token, trim
from engine.guards.context_words import KEY, QUOTED, VALUE, VALUE_FIELD, WORDS, keyed

_EMPHASIS = r"[*_]{0,2}"
"""Markdown's bold or italics around a key (``**Password:** …``)."""


def _value_groups(regex: Any) -> tuple[int, ...]:
    """The numbers of a rule's value groups (RE2's ``span`` takes a number only)."""
    index = regex.groupindex
    return tuple(index[name] for name in ("dq", "sq", "bare", "value") if name in index)


def _value(m: Any, groups: tuple[int, ...]) -> tuple[int, int] | None:
    """The span of the value group that matched."""
    for group in groups:
        start, end = m.span(group)
        if end > start:
            return int(start), int(end)
    return None


def _authorization(m: Any, value: str) -> bool:
    scheme = (m.group("scheme") or "").strip().lower()
    if scheme == "basic":
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        except (binascii.Error, ValueError):
            return random_token(value, 8)
        _user, colon, password = decoded.decode("latin-1").partition(":")
        return bool(colon) and plausible(password, minimum=3)
    if "=" in value and '"' in m.group(0):  # Digest's parameters: the response is the secret
        return "response" in value.lower() and not any(c in value for c in "<>$")
    return random_token(value, 8)


_USER_FLAG = r"(?:-[uU](?:[ \t]+|=)?[^\s\-]\S*|--user(?:name)?(?:=|[ \t]+)\S+|/u(?:ser)?:\S+)"
_PASSWORD_LETTER = r"(?:-[pP]|/p:)"
"""``-p``/``-P``, or Windows' ``/p:`` (xfreerdp's, beside ``/u:``; msbuild's ``/p:`` names
a property and stands beside no user)."""
_FLAG_VALUE = (
    r"(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'|(?P<bare>[^\s\"'`\-][^\s\"'`]{2,}))"
)
_GAP = r"[^\n|;&]*?[ \t]"
"""What stands between a command's name and its flag, on the same command."""
_TOOL_FLAG = (
    r"(?:^|[\s;|&(`\"'])(?:(?:sshpass|rdesktop|psexec(?:64)?|paexec|rabbitmqadmin)(?:\.exe)?\b"
    + _GAP
    + r"-p|(?i:sqlcmd|bcp|osql)(?:\.exe)?\b"
    + _GAP
    + r"-P|(?:zip|unzip|mosquitto_(?:pub|sub|rr))\b"
    + _GAP
    + r"-P|redis-cli\b"
    + _GAP
    + r"-a|ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn|exop|url)\b"
    + _GAP
    + r"-w|ssh-keygen\b"
    + _GAP
    + r"-[NP])[ \t]+"
)
"""A tool whose own short flag takes the password: sshpass, rdesktop, psexec ``-p``;
sqlcmd, bcp, zip ``-P``; redis-cli ``-a``; the ldap tools ``-w``; ssh-keygen ``-N`` and
``-P`` (a key's new and old passphrase). (PuTTY's ``-pw`` is a flag named for a
password, as ``--password`` is.)"""
_POSITIONAL = (
    r"(?:^|[\s;|&(`])(?:htpasswd[ \t]+(?:-[A-Za-z]+[ \t]+)*?-[A-Za-z]*b[A-Za-z]*"
    r"(?:[ \t]+-[A-Za-z]+)*(?:[ \t]+[^\s\-]\S*)?[ \t]+[^\s\-]\S*"
    r"|(?i:ConvertTo-SecureString)(?:[ \t]+-String)?)[ \t]+"
)
"""A password given without a name, where the command says what it is: htpasswd's
``-b`` (batch: ``[FILE] USER PASSWORD``), PowerShell's ``ConvertTo-SecureString 'x'``."""
_USER_PERCENT = (
    r"(?:^|[\s;|&(`])(?:smbclient|rpcclient|smbcacls|smbget|smbtree|smbmap|winexe|net)\b"
    + _GAP
    + r"(?:-U|--user(?:name)?=?)[ \t]*[\"']?[^\s%\"']+%(?P<bare>[^\s\"'%][^\s\"']*)"
)
"""Samba's ``-U user%password``."""
_USER_SLASH = (
    r"(?im)(?:^|[\s;|&(`])(?:(?:sqlplus|sqlldr|expdp|impdp|exp|imp|rman|dgmgrl)"
    r"(?:[ \t]+-\w+)*[ \t]+(?:target=?[ \t]*|userid=)?|(?P<conn>conn(?:ect)?)[ \t]+)"
    r"[\"']?[\w$#.]+/(?P<bare>[^\s@/\"';]{3,200})(?P<at>@)?"
)
"""Oracle's ``user/password[@db]`` (sqlplus, Data Pump, rman; ``CONNECT`` with ``@db``)."""
_HTTPIE_AUTH = (
    r"(?:^|[\s;|&(`])(?:https?|xhs?)\b" + _GAP + r"(?:-a|--auth)(?:=|[ \t]+)[\"']?"
    r"(?P<user>[^\s:\"'@]{1,64}:)?(?P<bare>[^\s\"']{3,200})"
)
"""HTTPie's (and xh's) ``-a``/``--auth user:password``, or a bearer token alone."""
_SNMP_COMMUNITY = (
    r"(?im)(?:^|[\s;|&(`])(?:snmp-server[ \t]+community|r[ow]community6?"
    r"|snmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|netstat|df)\b" + _GAP + r"-c)"
    r"[ \t]+"
)
"""An SNMP community, the password of SNMP v1 and v2c: Cisco's ``snmp-server community
…``, net-snmp's ``rocommunity``/``rwcommunity`` and its tools' ``-c`` (``public`` and
``private``, the defaults, are words)."""
_GLUED_TOOL = r"(?:^|[\s;|&(`])(?:7z[ar]?|7za|unrar|rar|winrar)(?:\.exe)?\b" + _GAP + r"-p"
"""An archiver whose ``-p`` takes the password glued to it (7-Zip's and RAR's ``-pX``;
spaced, ``-p`` alone prompts)."""
_CONFIG_PASSWORD = (
    r"(?im)^[ \t]*(?:stats[ \t]+auth[ \t]+[^\s:]+:|user[ \t]+\S+[ \t]+insecure-password[ \t]+"
    r"|[^\n:#\\\"']{0,200}:[ \t]*(?-i:PSK|XAUTH|EAP|NTLM)[ \t]+(?:\"|'))"
)
"""A password a configuration line gives after a keyword of its own: HAProxy's ``stats
auth user:x`` and ``user NAME insecure-password x``, strongSwan's ``ipsec.secrets`` (``[ids]
: PSK "x"``, ``: XAUTH "x"``, ``: EAP "x"``, quoted)."""
_USER_COMMA = r"(?:^|[\s;|&(`])lftp\b" + _GAP + r"-u[ \t]+[\"']?[^\s,\"']+,"
"""lftp's ``-u user,password``."""
_STDIN_READER = (
    r"(?:--[\w\-]*?(?:pass|secret|token|key|cred)[\w\-]*?stdin\b|--with-token\b"
    r"|--pass(?:word|phrase)-fd[ =]0\b|\bpasswd\b[^\n|;&]*?[ \t]--stdin\b"
    r"|\bsudo\b[^\n|;&]*?[ \t]-[A-Za-z]*S\b|\bchpasswd\b|\bkinit\b"
    r"|\bsecret[ \t]+create\b[^\n|;&]*?[ \t]-(?:[ \t]|$))"
)
"""What reads a credential on its standard input: ``--password-stdin`` (docker, podman,
helm, oras), ``gh auth login --with-token``, ``gpg --passphrase-fd 0``, ``passwd
--stdin``, ``sudo -S``, ``chpasswd``, ``kinit``, ``docker secret create NAME -``."""
_PIPED_VALUE = (
    r"(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'"
    r"|(?P<bare>[^\s\"'`|;&<>()\-][^\s\"'`|;&<>()]{0,200}))"
)
_NET_VALUE = r"(?:\"(?P<dq>[^\"\n]{1,200})\"|(?P<bare>[^\s/*\"][^\s\"]{0,200}))"
"""A positional value of ``net``: not a ``/flag``, not ``*`` (which prompts)."""
_PATH_KEY = r"(?P<key>[\w./:\-]*?(?:" + WORDS + r"))"
"""A name ending in a credential word, a path's or a section's parts before it
(``//registry/:_authToken``, ``app/db/password``, ``Smtp:Password``)."""
_SET_VERB = r"(?:(?:[\w\-]+:)?set(?:x|env)?|put|config|env)"
"""What sets a named value: ``aws configure set``, ``git config``, ``npm``/``yarn config
set``, ``pulumi config set``, ``heroku``/``netlify env:set``, ``setx``, fish's ``set
-gx``, ``launchctl setenv``, ``consul kv put``, ``etcdctl put``, redis' ``CONFIG SET``,
a Dockerfile's ``ENV NAME VALUE``."""
_NAME_FLAG = r"(?:(?:^|[ \t])(?:--(?:secret-|parameter-)?name|-n)(?:=|[ \t]+)|\bset[ \t]+)"
"""Where a command takes the name of what it sets: ``--name`` (az keyvault, aws ssm and
secretsmanager), or ``set NAME`` (gh secret set)."""
_VALUE_FLAG = r"(?:--(?:value|body|secret-string|string-value|data)|-b)"
"""The flag that then takes the value."""
_PROMPT_AUTH = (
    r"(?:(?:^|\s)[\w.\-]+(?::\d+)?(?:\[\d+\])?>|\bredis-cli\b[^\n|;&]*?[ \t])"
    r"[ \t]*(?i:auth)[ \t]+(?:[^\s\"'`]+[ \t]+)?"
)
"""Redis' ``AUTH [user] password`` at its prompt (``127.0.0.1:6379> AUTH …``) or as
``redis-cli``'s command."""
_PGPASS_FIELDS = r"(?:[\w.\-]+|\*):(?:\d+|\*):(?:[\w.\-]+|\*):(?:[\w.@\-]+|\*):"
"""A ``.pgpass`` line's host, port, database and user, each ``*`` or a name."""
_SQL_QUOTED = r"N?(?:'(?P<sq>[^'\n]{1,200})'|\"(?P<dq>[^\"\n]{1,200})\")"
"""A SQL string (SQL Server's ``N'…'`` too), or Oracle's double-quoted password."""


def _sql(m: Any, value: str) -> bool:
    """A password a statement sets: unquoted only in Oracle's ``CREATE``/``ALTER USER
    name``, ``GRANT … TO name`` and ``CONNECT TO name`` (``IDENTIFIED BY tiger1``);
    ``USING`` only in Db2's ``CONNECT TO db USER name`` (elsewhere it names a service)."""
    if m.group("using") and not m.group("db2"):
        return False
    if m.group("bare") and not m.group("who"):
        return False
    return plausible(value)


_WORD_FLAG = re2.compile(r"(?i)p(?:ass(?:word|wd|phrase)?|ort)\b")


def _password_flag(m: Any, value: str) -> bool:
    """``-p``/``-P`` beside a user flag: glued to it (``-pX``, mysql's form) any value
    not a placeholder; spaced (``-p X``: docker, sqlcmd, psexec; mysql's ``-p db``
    prompts) a password-like one."""
    if m.group("spaced"):  # and a letter: "-p 8080:80" beside "-u 1000" is a port
        return plausible(value) and any(c.isalpha() for c in value)
    return _glued_password(value)


def _glued_password(value: str) -> bool:
    if _WORD_FLAG.match("p" + value):
        return False  # PowerShell's -Password, -Port: a word flag, its value follows
    reference = value.startswith(("$", "<", "{", "%", "*"))
    return len(value) >= 3 and not reference and "xxx" not in value.lower()


def _hash(m: Any, value: str) -> bool:
    last = value.rsplit("$", 1)[-1]
    return len(last) >= 16 or (value.count("$") >= 3 and len(value) >= 30)


_WHOLE_CALL = re2.compile(r"[A-Za-z_][\w.:]*\([^()]*\)")
_OPENERS = str.maketrans("([<", "+++")


def _quoted_whole(m: Any, value: str) -> bool:
    """A value quoted with its name is a literal: a call only where one is written whole
    (``getenv(…)``); else an opening bracket is a character of it (Django's generated
    keys hold ``(``), not code, and the value is judged as :func:`.keyed` judges one."""
    return not _WHOLE_CALL.fullmatch(value) and keyed(m, value.translate(_OPENERS))


ContextRule = tuple[str, Any, Callable[[Any, str], bool]]
"""(kind, expression on RE2, check of the match and its value): one context rule."""
_MYSQL_HASH = r"(?:^|[^\w*])(?P<value>\*[0-9A-F]{40})(?:[^0-9A-Za-z]|$)"
"""MySQL's ``mysql_native_password`` hash: ``*`` and SHA-1 twice over, in 40 uppercase hex
digits, as MySQL prints it (``IDENTIFIED BY PASSWORD '*6BB4…'``, ``mysql.user``'s
``authentication_string``); a git SHA after a markdown ``*`` is lowercase."""
_PG_MD5 = r"(?:^|[^\w])(?P<value>md5[0-9a-f]{32})(?:[^\w]|$)"
"""PostgreSQL's md5 password (``md5`` and the MD5 of the password and the user's name, as
``pg_authid``, ``pg_dumpall`` and PgBouncer's ``userlist.txt`` hold it): it logs in as it
is (a file's MD5 is written apart from the word, ``md5:…``, ``MD5 (f) = …``)."""
_PWDUMP = r"(?m)(?:^|[\s>])[^\s:]{1,100}:\d{1,10}:(?P<value>[0-9A-Fa-f]{32}:[0-9A-Fa-f]{32}):"
"""A pwdump line (pwdump, Impacket's secretsdump, Metasploit's hashdump): ``user:RID:LM
hash:NT hash:::``, the LM and NT hashes the value (an NT hash is the password's MD4:
passed as it is, it logs in)."""


def _hex_hash(m: Any, value: str) -> bool:
    """Hex of a digest: digits and letters both (40 or 32 digits alone, or letters
    alone, are a number or a word), not one digit repeated."""
    digits = [c for c in value if c.isalnum()]
    has_digit = any(c.isdigit() for c in digits)
    return has_digit and any(c.isalpha() for c in digits) and len(set(digits)) > 2


def _jwk(m: Any, value: str) -> bool:
    return '"kty"' in m.string


def _pem_in_base64(m: Any, value: str) -> bool:
    """Base64 of a PEM block whose label names a private key."""
    try:
        head = base64.b64decode(value[:80], validate=True)
    except (binascii.Error, ValueError):
        return False
    return b"PRIVATE KEY" in head


def _der_private(m: Any, value: str) -> bool:
    """Base64 DER whose outer SEQUENCE starts with a small INTEGER (a version: PKCS#1,
    PKCS#8, PKCS#12) or with an encryption algorithm's identifier (an encrypted PKCS#8
    key); a certificate's starts with another SEQUENCE holding ``[0]``."""
    head = "".join(value.split())[:24].replace("\\n", "")
    try:
        der = base64.b64decode(head[:20], validate=True)
    except (binascii.Error, ValueError):
        return False
    if len(der) < 10 or der[0] != 0x30:
        return False
    body = 2 + (der[1] & 0x7F if der[1] & 0x80 else 0)
    inner = der[body : body + 5]
    if inner[:2] == b"\x02\x01" and inner[2:3] and inner[2] <= 3:
        return True
    return inner[:1] == b"\x30" and inner[2:3] == b"\x06"


_KEY_VALUE = (
    r"(?:\"(?P<dq>[^\"\n]{20,200})\"|'(?P<sq>[^'\n]{20,200})'"
    r"|(?P<bare>[^\s\"',;`()\[\]{}<>]{20,200}))"
)
"""A header's key: 20 characters or more, as :func:`.context_words.keyed` asks of a key
(the expression asks it too, so a run of header names is not a run of matches)."""
_NOT_A_CREDENTIAL = re2.compile(r"(?i)idempoten|websocket|cache|csrf|xsrf|request|trace|correl")
"""Header names ending in ``Key`` that name a nonce or an identifier."""


_HCL_VARIABLE = r"(?i)\bvariable[ \t]+\"" + KEY + r"\"[ \t]*\{[^}]{0,500}?\bdefault[ \t]*=[ \t]*"
"""A Terraform (HCL) variable named for a credential, up to its default, the value: tfsec's
``general-secrets-sensitive-in-variable`` (GEN001, "potentially sensitive data stored in
the default value of a variable"); the block's other attributes may stand between, over
lines, and no nested block (``validation { … }``) before it."""
_BLOCK_SCALAR = (
    r"(?im)^[ \t]*(?:-[ \t]+)?[\"']?" + KEY + r"[\"']?[ \t]*:[ \t]*[|>][1-9+\-]{0,2}[ \t]*"
    r"(?:#[^\n]*)?\r?\n[ \t]+(?P<bare>[^\s#][^\s]{0,200})[ \t]*\r?$"
)
"""A YAML key naming a credential given a block scalar (``password: |``, ``>-``, ``|2``):
its value is the next, indented line, one word of it (a line of words, or a mapping key
ending in ``:``, is the document going on)."""


CONTEXT_RULES: tuple[ContextRule, ...] = (
    (
        "config-secret",
        re2.compile(
            r"(?i)(?:^|[^A-Za-z0-9_.\-])"
            + KEY
            + _EMPHASIS
            + r"[\"']?[\]}]?[ \t]*(?::=|=>|=|:)"
            + _EMPHASIS
            + r"[ \t]*"
            + VALUE
        ),
        keyed,
    ),
    (
        "config-secret",
        # A name or key field naming a credential, its value in the value field beside
        # it (Kubernetes env, parameter stores, name/value pairs in JSON or YAML, .NET's
        # <add key="…" value="…"/>, Postman's {"key": …, "value": …}).
        re2.compile(
            r"(?i)\b(?:name|key)[\"']?[ \t]*[:=][ \t]*[\"']?" + KEY + r"[\"']?[ \t]*,?[ \t]*\r?\n?"
            r"[ \t\-]*[\"']?value[\"']?[ \t]*[:=][ \t]*" + VALUE
        ),
        keyed,
    ),
    (
        "config-secret",
        re2.compile(
            r"(?im)^[ \t]*" + KEY + r"[ \t]+(?:" + QUOTED + r"|(?P<bare>[^\s#;'\"]{4,200}))"
            r"[ \t]*;?[ \t]*$"
        ),
        keyed,
    ),
    (
        "config-secret",
        re2.compile(
            r"(?i)<" + KEY + r"(?:[ \t][^>\n]{0,200})?>[ \t]*(?P<value>[^<\s][^<\n]{0,200}?)"
            r"[ \t]*</"
        ),
        keyed,
    ),
    (
        "config-secret",
        # An element whose key or name attribute names a credential, its text the value
        # (Java's XML properties <entry key="db.password">, <param name="password">).
        re2.compile(
            r"(?i)<[\w:.\-]+[ \t][^>\n]{0,200}?\b(?:name|key)[ \t]*=[ \t]*[\"']"
            + KEY
            + r"[\"'][^>\n]{0,200}?>[ \t]*(?P<value>[^<\s][^<\n]{0,200}?)[ \t]*</"
        ),
        keyed,
    ),
    ("config-secret", re2.compile(_HCL_VARIABLE + r"(?:" + QUOTED + ")"), keyed),
    (
        "config-secret",
        re2.compile(_BLOCK_SCALAR),
        lambda m, value: not value.endswith(":") and keyed(m, value),
    ),
    (
        "config-secret",
        # An assignment quoted whole, its value running to the closing quote: systemd's
        # Environment="NAME=value", a compose file's or an argument list's "NAME=value"
        # (- "…", ["…", …], -e "…"). A generated value may hold what ends an unquoted
        # one (Django's keys hold ( ) and %).
        re2.compile(
            r"(?i)(?:^|[\s=\[(,:{])[\"']" + KEY + r"=(?P<value>[^\"'\s][^\"'\n]{0,199})[\"']"
        ),
        _quoted_whole,
    ),
    (
        "config-secret",
        # An HTTP header named for a key (gitleaks' curl-auth-header takes "X-…-Key" and
        # "Api-Key" inside a curl command only): "x-functions-key: …",
        # "Ocp-Apim-Subscription-Key: …"; not a nonce's or an identifier's
        # ("Sec-WebSocket-Key", "Idempotency-Key", "X-Cache-Key").
        re2.compile(
            r"(?:^|[\s\"'{(,;])(?P<key>(?i:x-[A-Za-z0-9\-]*?key)|(?:[A-Z][A-Za-z0-9]*-)+Key)"
            r"[\"']?[ \t]*:[ \t]*" + _KEY_VALUE
        ),
        lambda m, value: not _NOT_A_CREDENTIAL.search(m.group("key")) and keyed(m, value),
    ),
    (
        "pgpass-password",
        re2.compile(r"(?m)^" + _PGPASS_FIELDS + r"(?P<value>[^\s:][^\s]{2,200})$"),
        lambda m, value: plausible(value, minimum=4),
    ),
    (
        "pgpass-password",
        # The same line quoted whole, as it is echoed into the file.
        re2.compile(
            r"(?:^|[\s=(])(?:'" + _PGPASS_FIELDS + r"(?P<sq>[^\s:'][^\s']{2,200})'"
            r"|\"" + _PGPASS_FIELDS + r"(?P<dq>[^\s:\"][^\s\"]{2,200})\")"
        ),
        lambda m, value: plausible(value, minimum=4),
    ),
    (
        "flag-secret",
        re2.compile(r"(?i)(?:^|[\s\"'(\[])--?" + KEY + r"(?:=|[ \t]+)" + VALUE),
        keyed,
    ),
    (
        "flag-secret",
        re2.compile(
            r"(?:^|[ \t])"
            + _USER_FLAG
            + r"[^\n]*?[ \t]"
            + _PASSWORD_LETTER
            + r"(?P<spaced>[ \t]+)?"
            + _FLAG_VALUE
        ),
        _password_flag,
    ),
    (
        "flag-secret",
        re2.compile(
            r"(?:^|[ \t])"
            + _PASSWORD_LETTER
            + r"(?P<spaced>[ \t]+)?"
            + _FLAG_VALUE
            + r"[^\n]*?[ \t]"
            + _USER_FLAG
        ),
        _password_flag,
    ),
    ("flag-secret", re2.compile(_TOOL_FLAG + _FLAG_VALUE), lambda m, value: plausible(value)),
    (
        "flag-secret",
        # A command that sets a value by its name, the two spaced: "aws configure set
        # aws_secret_access_key …", "git config github.token …", "setx DB_PASSWORD …".
        re2.compile(
            r"(?i)(?:^|[\s;|&(`])"
            + _SET_VERB
            + r"(?:[ \t]+-{1,2}[A-Za-z][\w\-]*)*[ \t]+[\"']?"
            + _PATH_KEY
            + r"[\"']?[ \t]+"
            + _FLAG_VALUE
        ),
        keyed,
    ),
    (
        "flag-secret",
        # The name given to one flag, the value to another: "az keyvault secret set
        # --name db-password --value …", "gh secret set SLACK_TOKEN --body …".
        re2.compile(
            r"(?i)"
            + _NAME_FLAG
            + r"[\"']?"
            + _PATH_KEY
            + r"[\"']?(?:[ \t][^\n|;&]*?)?[ \t]"
            + _VALUE_FLAG
            + r"(?:=|[ \t]+)"
            + _FLAG_VALUE
        ),
        keyed,
    ),
    ("flag-secret", re2.compile(_PROMPT_AUTH + _FLAG_VALUE), lambda m, value: plausible(value)),
    ("flag-secret", re2.compile(_POSITIONAL + _FLAG_VALUE), lambda m, value: plausible(value)),
    ("flag-secret", re2.compile(_USER_PERCENT), lambda m, value: plausible(value)),
    (
        "flag-secret",
        re2.compile(_USER_SLASH),
        lambda m, value: (m.group("at") is not None or not m.group("conn")) and plausible(value),
    ),
    (
        "flag-secret",
        re2.compile(_HTTPIE_AUTH),
        lambda m, value: plausible(value) if m.group("user") else random_token(value, 16),
    ),
    ("flag-secret", re2.compile(_SNMP_COMMUNITY + _FLAG_VALUE), lambda m, value: plausible(value)),
    (
        "flag-secret",
        re2.compile(_GLUED_TOOL + _FLAG_VALUE),
        lambda m, value: _glued_password(value),
    ),
    ("flag-secret", re2.compile(_USER_COMMA + _FLAG_VALUE), lambda m, value: plausible(value)),
    (
        "config-secret",
        re2.compile(_CONFIG_PASSWORD + _FLAG_VALUE),
        lambda m, value: plausible(value),
    ),
    (
        "flag-secret",
        # mysql's -p glued to its value needs no -u beside it (-p spaced prompts).
        re2.compile(r"(?:^|[\s;|&(`])(?:mysql\w*|mariadb\w*)\b" + _GAP + r"-p" + _FLAG_VALUE),
        lambda m, value: _glued_password(value),
    ),
    (
        "flag-secret",
        # A value piped into what reads a credential on its standard input.
        re2.compile(
            r"(?:^|[\s;&(`])(?:echo|printf)(?:[ \t]+-[neE]{1,3})*"
            r"(?:[ \t]+(?:'%s(?:\\n)?'|\"%s(?:\\n)?\"))?[ \t]+"
            + _PIPED_VALUE
            + r"[ \t]*\|[ \t]*[^\n|;&]{0,200}?"
            + _STDIN_READER
        ),
        lambda m, value: plausible(value),
    ),
    (
        "flag-secret",
        # The same given by a here-string (bash's <<<).
        re2.compile(_STDIN_READER + r"[^\n|;&]{0,200}?<<<[ \t]*" + _PIPED_VALUE),
        lambda m, value: plausible(value),
    ),
    (
        "flag-secret",
        # net use [X:] \\host\share PASSWORD /user:NAME, or the password after /user:NAME;
        # net user NAME PASSWORD [/add].
        re2.compile(
            r"(?i)(?:^|[\s;&(`])net(?:\.exe)?[ \t]+(?:use\b(?:[^\n|&]{0,200}?[ \t]/u(?:ser)?:"
            r"(?:\"[^\"\n]*\"|\S+)|(?:[ \t]+(?:[A-Za-z]:|\*))?[ \t]+(?:\"\\\\[^\"\n]+\"|\\\\\S+))"
            r"|user[ \t]+(?:\"[^\"\n]+\"|[^\s/\"]+))[ \t]+" + _NET_VALUE
        ),
        lambda m, value: plausible(value),
    ),
    (
        "http-authorization",
        re2.compile(
            r"(?i)(?:^|[^\w\-])(?:proxy-)?authorization[\"']?"
            + VALUE_FIELD
            + r"[ \t]*[:=][ \t]*[\"']?"
            r"(?P<scheme>[A-Za-z][\w\-]{1,20}[ \t]+)?(?P<value>"
            r"(?:[\w\-]+=(?:\"[^\"\n]*\"|[^\s,\"']+),?[ \t]*)+|[^\s\"'`<>,]{6,})"
        ),
        _authorization,
    ),
    (
        "sql-password",
        # MySQL, MariaDB, Oracle: IDENTIFIED [WITH plugin] BY 'x' (Oracle: unquoted);
        # Db2: CONNECT TO db USER name USING x.
        re2.compile(
            r"(?i)(?:\b(?P<who>(?:CREATE|ALTER)[ \t]+USER|GRANT[ \t][^;]{0,200}?[ \t]TO"
            r"|CONNECT[ \t]+TO(?P<db2>[ \t]+[^\s;]{1,100}[ \t]+USER)?)[ \t]+[^\s;]{1,100}[ \t]+)?"
            r"\b(?:IDENTIFIED[ \t]+(?:WITH[ \t]+[\w'\"`]+[ \t]+)?BY[ \t]+(?:PASSWORD[ \t]+)?"
            r"|(?P<using>USING)[ \t]+)(?:" + _SQL_QUOTED + r"|(?P<bare>[^\s'\";,()]{1,200}))"
        ),
        _sql,
    ),
    (
        "sql-password",
        # PostgreSQL, SQL Server, Snowflake, Cassandra: CREATE/ALTER USER, ROLE or LOGIN
        # … [WITH] [ENCRYPTED] PASSWORD [=] 'x' (options and lines between), SQL
        # Server's … BY PASSWORD = N'x' (a master key), MariaDB's USING PASSWORD('x').
        re2.compile(
            r"(?i)(?:\b(?:CREATE|ALTER)[ \t]+(?:USER|ROLE|LOGIN|GROUP)\b[^;]{0,300}?[\s(,]"
            r"|\b(?:BY|USING)[ \t]+)(?:(?:UN)?ENCRYPTED[ \t]+)?PASSWORD[ \t]*(?:=[ \t]*)?"
            r"(?:\([ \t]*)?" + _SQL_QUOTED
        ),
        lambda m, value: plausible(value),
    ),
    (
        "sql-password",
        # MySQL, MariaDB: SET PASSWORD [FOR 'user'@'host'] = ['x' | PASSWORD('x')];
        # SQL Server: sp_addlogin 'name', 'x'.
        re2.compile(
            r"(?i)(?:\bSET[ \t]+PASSWORD\b(?:[ \t]+FOR[ \t]+[^=\n;]{1,100}?)?[ \t]*=[ \t]*"
            r"(?:(?:OLD_)?PASSWORD[ \t]*\([ \t]*)?|\bsp_addlogin[ \t]+(?:@\w+[ \t]*=[ \t]*)?"
            r"N?'[^'\n]{1,128}'[ \t]*,[ \t]*(?:@\w+[ \t]*=[ \t]*)?)" + _SQL_QUOTED
        ),
        lambda m, value: plausible(value),
    ),
    *PROSE_RULES,
    (
        "password-hash",
        re2.compile(
            r"(?:^|[^\w$])(?P<value>\$(?:[0-9][a-z]?|apr1|argon2(?:id|i|d)|scrypt|y|gy|7|sha1|md5"
            r"|pbkdf2(?:-sha\d+)?)\$[A-Za-z0-9./+=,$\-]{20,})"
        ),
        _hash,
    ),
    (
        "password-hash",
        re2.compile(
            r"(?:^|[^\w$])(?P<value>(?:pbkdf2_sha\d+|bcrypt_sha256|argon2|scrypt)"
            r"\$[A-Za-z0-9./+=,$\-]{20,})"
        ),
        _hash,
    ),
    (
        "password-hash",
        re2.compile(
            r"(?i)\{(?:S?SHA(?:256|384|512)?|S?MD5|CRYPT|PBKDF2[\w\-]*|ARGON2|BCRYPT)\}"
            r"(?P<value>[A-Za-z0-9+/=$.,]{12,})"
        ),
        lambda m, value: True,
    ),
    (
        "cookie-secret",
        # A value signed by itsdangerous (Flask's session cookie, its reset and confirm
        # links), named or not: base64url JSON (".eJ" and zlib when compressed), a
        # 6-character timestamp and the HMAC (SHA-1's 27 characters, up to SHA-512's 86).
        re2.compile(
            r"(?:^|[^\w.\-])(?P<value>(?:eyJ|\.eJ)[\w\-]{6,}\.[\w\-]{6}\.[\w\-]{27,86})(?:[^\w.\-]|$)"
        ),
        lambda m, value: True,
    ),
    ("password-hash", re2.compile(_MYSQL_HASH), _hex_hash),
    ("password-hash", re2.compile(_PG_MD5), _hex_hash),
    ("password-hash", re2.compile(_PWDUMP), _hex_hash),
    (
        "private-key",
        # A PEM private key encoded once more in base64 ("LS0tLS1CRUdJTi" is "-----BEGIN"):
        # a kubeconfig's client-key-data, a Kubernetes Secret's tls.key.
        re2.compile(r"(?:^|[^A-Za-z0-9+/])(?P<value>LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2})"),
        _pem_in_base64,
    ),
    (
        "private-key",
        re2.compile(
            r"(?i)Private-Lines:[ \t]*\d+[ \t]*\r?\n(?P<value>[A-Za-z0-9+/=]{16,}"
            r"(?:\r?\n[A-Za-z0-9+/=]{4,})*)"
        ),
        lambda m, value: True,
    ),
    (
        "private-key",
        re2.compile(
            r"\"(?:d|p|q|dp|dq|qi|k)\"[ \t]*:[ \t]*\"(?P<value>[A-Za-z0-9_\-]{16,}={0,2})\""
        ),
        _jwk,
    ),
    (
        "private-key",
        re2.compile(
            r"(?:^|[^A-Za-z0-9+/])(?P<value>MI[A-Za-z0-9+/]{60,}={0,2}"
            r"(?:(?:\r?\n|\\n)[ \t]*[A-Za-z0-9+/]{4,}={0,2})*)"
        ),
        _der_private,
    ),
)
CONTEXT_RULES += CALL_RULES + LIST_RULES
"""(kind, expression on RE2, check of the match and its value) of every context rule."""


@dataclass(frozen=True, slots=True)
class ContextFinding:
    """A value its context names a credential: the rule's kind and the value's span."""

    kind: str
    start: int
    end: int
    match: str


def _trimmed(text: str, start: int, end: int, sentence: bool) -> tuple[int, int]:
    raw = text[start:end]
    value = trim(raw, sentence)
    begin = start + raw.find(value) if value else start
    return begin, begin + len(value)


_RESCAN = 300
"""How far past a rejected match's end a look inside it reads (a value is 200 characters
at most: a match that starts inside one ends well before that), and how much of a rejected
match is looked inside (a longer match is a line's gap, not a value)."""
_LOOKS_INSIDE = 3
"""How many rejected matches one look inside a match may meet before it stops: enough for
a value inside a value inside a value (``auth: otpauth://…?token=/a&secret=…``), and
each match costs (RE2 reads its groups anew), so text made of keys (``auth:auth:…``)
stays a constant factor of one pass."""
_SHORTEST = 4
"""The fewest characters a match inside a rejected one starts with before that one's end:
a character before a key, the shortest key (``pw``) and its separator; a value ends at
what no key holds (a blank, a quote, ``,``), so no key runs on past it."""


_PARAMETERS = "?&;"
"""Where a value can hold a key and a value of its own: a URL's query or parameters
(``otpauth://…?secret=…``, ``…?token=/a&password=…``, ``Server=…;Password=…``); only a
rejected match holding one is looked inside, so that text made of keys and nothing else
(``password=password=…``) is read once, as before."""


_TAG = re2.compile(r"![A-Za-z][\w.:/\-]{0,40}")
_TAGGED = re2.compile(r"[ \t]+[^\s#]")


def _yaml_tag(text: str, start: int, end: int) -> bool:
    """A YAML tag where a value goes, more of its line after it: what follows is the
    value, tagged (Ansible's ``password: !vault |`` and its ciphertext, Home
    Assistant's ``!secret wifi_password``, CloudFormation's ``!Ref DbPassword``)."""
    return bool(_TAG.fullmatch(text[start:end]) and _TAGGED.match(text[end : end + 2]))


def _judged(
    rule: ContextRule,
    groups: tuple[int, ...],
    m: Any,
    offset: int,
    text: str,
) -> tuple[ContextFinding | None, int]:
    """A match (found in ``text[offset:]``) and its value, kept or not, and where to look
    again: past its end when it is kept; when not, at its value (what it took for one may
    hold a key and a value of its own: ``otpauth://…?secret=…`` after ``otpauth:``), or
    just past its start when it has none."""
    kind, _regex, check = rule
    span = _value(m, groups)
    if span is None:
        return None, offset + m.start() + 1
    start, end = offset + span[0], offset + span[1]
    again = max(offset + m.start() + 1, start - 1)  # the character before a key inside
    if text[end : end + 1] in ("(", "["):
        return None, again  # a call or an index: code, not a value
    if text[start : start + 1] == "!" and _yaml_tag(text, start, end):
        return None, again
    start, end = _trimmed(text, start, end, kind == "prose-secret")
    if end > start and check(m, text[start:end]):
        return ContextFinding(kind, start, end, m.group(0)), offset + m.end()
    return None, again


def _inside(
    rule: ContextRule,
    groups: tuple[int, ...],
    text: str,
    pos: int,
    stop: int,
) -> Iterator[ContextFinding]:
    """Matches that start from ``pos`` up to ``stop`` (a rejected match's end), which
    ``finditer`` never looks at: its matches do not overlap. Each search runs on a window
    around them (RE2's ``search`` re-encodes all of its text), the character before
    ``pos`` kept so that ``^`` and ``\\b`` mean what they mean in the whole text; a match
    that runs to a window's cut end is not trusted (the text goes on). (A check that reads
    the match's whole text, the JSON Web Key's ``"kty"``, reads the window.)"""
    stop = min(stop, pos + _RESCAN)
    begin, end = pos - 1, min(len(text), stop + _RESCAN)
    window = text[begin:end]
    cut = end < len(text)
    rejected = 0
    while stop - pos >= _SHORTEST and rejected < _LOOKS_INSIDE:
        m = rule[1].search(window, pos - begin)
        if m is None or begin + m.start() >= stop:
            return
        if cut and m.end() == len(window):
            pos = begin + m.start() + 1
            continue
        finding, pos = _judged(rule, groups, m, begin, text)
        if finding is None:
            rejected += 1
        else:
            yield finding


def context_secrets(text: str) -> Iterator[ContextFinding]:
    """Every value of ``text`` a context rule finds and its check keeps, then
    :func:`table_secrets`' and :func:`delimited_secrets`' cells and :func:`cookie_secrets`'
    values. A match whose value is not kept is looked inside (:func:`_inside`), as if
    the search went on from its value rather than its end: its value may hold another."""
    from engine.guards.tables import delimited_secrets, table_secrets

    for rule in CONTEXT_RULES:
        groups = _value_groups(rule[1])
        for m in rule[1].finditer(text):
            finding, again = _judged(rule, groups, m, 0, text)
            if finding is not None:
                yield finding
            elif any(text.find(c, again, m.end()) >= 0 for c in _PARAMETERS):
                yield from _inside(rule, groups, text, again, m.end())
    for start, end in table_secrets(text):
        yield ContextFinding("table-secret", start, end, text[start:end])
    for start, end in delimited_secrets(text):
        yield ContextFinding("table-secret", start, end, text[start:end])
    for start, end in cookie_secrets(text):
        yield ContextFinding("cookie-secret", start, end, text[start:end])
