"""Why each of the secret guard's hand-written rules exists: what the maintained upstream
rule set (gitleaks, :mod:`engine.guards.ruleset`) does not cover."""

from __future__ import annotations

_LOOSER = (
    "upstream's rule wants the exact shape of a real one; a mistyped, shortened or older"
    " one is still kept out"
)
_REASONS = (  # pairs, not "kind": "reason" (that reads as a password assignment)
    "private-key",
    (
        "upstream needs the END line and the key in one piece: these also take a key cut off"
        " (pasted unterminated, or at a chunk's end), folded onto one line or JSON-escaped"
    ),
    "aws-access-key-id",
    "upstream takes only base32 digits (2-7) after the prefix; " + _LOOSER,
    "aws-secret-key",
    "upstream has no AWS secret key rule; its generic rule misses the `aws configure` transcript",
    "authorization-header",
    "upstream catches Authorization only inside a curl command",
    "github-token",
    "upstream wants exactly 36 (ghp_) or 82 (github_pat_) characters; " + _LOOSER,
    "ai-api-key",
    "upstream's OpenAI and Anthropic rules want the full length and inner marker; " + _LOOSER,
    "slack-token",
    "upstream's Slack rules want the numeric ids of a real token; " + _LOOSER,
    "telegram-bot-token",
    "upstream needs the word telegram nearby; a bot token is unmistakable without it",
    "service-key",
    "upstream's Mailgun rule needs an assignment; this takes `key-…` named on its line",
    "discord-webhook-url",
    "upstream has no Discord webhook rule (gitleaks' Discord rules want the word and an"
    " assignment); this is the form of SonarSource's S6708 (sonar-text discord.yaml)",
    "fcm-server-key",
    "upstream has no Firebase Cloud Messaging rule; this is the form of SonarSource's S6710"
    " (sonar-text firebase.yaml), as a legacy server key starts (AAAA…:APA91b…)",
    "url-password",
    "upstream has no rule for a password in a URL (scheme://user:pass@host)",
    "connection-string-password",
    "upstream has no rule for `Password=`/`Pwd=` in ADO.NET,"
    " ODBC or JDBC connection strings (SQL Server and others)",
    "azure-sas-signature",
    "upstream has no Azure shared access signature rule; this is Microsoft"
    " security-utilities' SEC101/051 LooseSasSecret as written (`?sig=…%3D` in a SAS URL)",
    "netrc-password",
    "upstream has no .netrc rule (`machine … login … password …`)",
    "curl-user-password",
    "upstream's curl-auth-user takes only word characters in the"
    " password; this takes any (a `!` or `%` in it)",
    "properties-password",
    "upstream's generic rule drops low-entropy values; a"
    " `spring.datasource.password=` line is a password whatever its entropy",
    "password-assignment",
    "upstream's generic rule drops low-entropy or symbol-bearing"
    " values (`tr0ub4dor&3x`); a quoted value assigned to password/secret is one",
    "password-in-prose",
    "upstream has no rule for a password stated in prose (`the staging password is …`)",
    "yaml-secret",
    "upstream's generic rule drops low-entropy values under PASSWORD/SECRET keys in YAML",
    "env-secret",
    "upstream's generic rule drops low-entropy or symbol-bearing values of"
    " PASSWORD/SECRET variables in .env files and shell lines",
)
OWN_RULE_REASONS: dict[str, str] = dict(zip(_REASONS[::2], _REASONS[1::2], strict=True))
"""Why each hand-written rule exists: what the upstream set does not cover."""
