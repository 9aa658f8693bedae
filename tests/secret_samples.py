"""Fake but well-formed credentials of every kind the secret guard knows, built by
concatenation so that this repository holds no literal one (scanners would flag it)."""

from __future__ import annotations

__all__ = ["B64", "OPENSSH", "PEM", "SAMPLES"]

B64 = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0"
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    f"{B64[:64]}\n{B64[10:74]}\nAbCd==\n"
    "-----END RSA PRIVATE KEY-----"
)
OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "-----END OPENSSH PRIVATE KEY-----"
)

SAMPLES = {
    "private-key": [
        PEM,
        OPENSSH,
        "Encrypted:\n" + PEM.replace("RSA ", "ENCRYPTED "),
        "the key, pasted on one line: " + OPENSSH.replace("\n", " "),
        # JSON-escaped and cut off before its END line (upstream's rule needs that line).
        '{"private_key": "-----BEGIN RSA PRIVATE KEY-----\\n' + B64 + '\\n"}',
    ],
    "aws-access-key-id": ["aws_access_key_id = " + "AKIA" + "Z7QW3RT5YU8IOPLK"],
    "aws-secret-key": [
        "aws_secret_access_key=" + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8W4tN2pL",
        "AWS Secret Access Key [None]: " + "kF8sL2mQ9xV4bN7cJ1hT6gR3wY5zP0aE" + "dU8iO2qA",
    ],
    "github-pat": ["token: " + "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"],
    "github-token": [
        "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF",
    ],
    "gitlab-pat": ["glpat-" + "x9Yz8Wv7Ut6Sr5Qp4On3"],
    "slack-token": ["xoxb-" + "123456789012-abcdefABCDEF"],
    "slack-bot-token": ["xox" + "b-" + "123456789012-1234567890123-AbCdEfGhIjKl"],
    "ai-api-key": [
        "OPENAI key " + "sk-" + "proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
        "sk-" + "ant-api03-" + "Zx9Cv8Bn7Mm6Aa5Ss4Dd3Ff2Gg1Hh0Jj-_Kk",
        "sk-" + "T3BlbkFJ" + "a8b7c6d5e4f3g2h1i0j9k8l7",
    ],
    "gcp-api-key": ["AIza" + "SyD4-9f8G7h6J5k4L3m2N1b0V9c8X7z6Q5w"],
    "stripe-access-token": ["sk_" + "live_" + "51HqT2eKd8f7G6h5J4k3L2m1"],
    "jwt": [
        "the session token was eyJ"
        + "hbGciOiJIUzI1NiJ9"
        + ".eyJ"
        + "zdWIiOiIxMjM0NTY3ODkwIn0"
        + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    ],
    "url-password": [
        "DATABASE_URL is postgres://admin:" + "Pr0d-s3cr3t!" + "@db.internal:5432/app",
        "redis://:" + "hunter2hunter2" + "@cache:6379/0",
    ],
    "password-assignment": [
        'password = "' + "correct-Horse-9" + '"',
        "DB_PASSWORD = '" + "tr0ub4dor&3x" + "'",
        'client_secret: "' + "9f8e7d6c5b4a3210" + '"',
        '{"password": "' + "s3cr3tP@ssw0rd" + '"}',
        '{"apiKey": "' + "a1b2c3d4e5f6a7b8" + '"}',
    ],
    "npm-access-token": [
        "//registry.npmjs.org/:_authToken=" + "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    ],
    "slack-webhook-url": [
        "https://hooks.slack.com/services/" + "T0123ABCD/B0123ABCD/" + "abcdEFGHijklMNOPqrstUVWX"
    ],
    "authorization-header": [
        'curl -H "Authorization: Bearer ' + "eyJhbGciOiJIUzI1NiJ9abc" + 'def123456" https://api',
        "Authorization: Basic " + "dXNlcjpwYXNzd29yZDEyMw==",
    ],
    "generic-api-key": [
        "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey="
        + "Zm9vYmFyYmF6cXV4" * 5
        + "==;EndpointSuffix=core.windows.net",
        "datadog api key: " + "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
        # A Docker config.json "auth" (base64 of user:password), issue 35.
        '{"auths": {"registry.example.com": {"auth": "'
        + "ZGVwbG95ZXI6VGgxcy1pcy1zM2NyZXQ="
        + '"}}}',
    ],
    "password-in-prose": [
        "the staging password is " + "hunter2-Correct-Horse",
        "Admin password: " + "Pa55word!x",
    ],
    "yaml-secret": [
        "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: " + "s3cr3tPassw0rd",
    ],
    "sendgrid-api-token": [
        "SENDGRID="
        + "SG."
        + "aB3dE6gH9jK2mN5pQ8sT1v"
        + "."
        + "wX4yZ7bC0eF3hJ6kM9nP2rS5uV8xA1cD4fG7iL0oQ3t"
    ],
    "twilio-api-key": ["twilio api key " + "SK" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0"],
    "shopify-access-token": [
        "X-Shopify-Access-Token: " + "shpat_" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    ],
    "pypi-upload-token": [
        "upload token "
        + "pypi-AgEIcHlwaS5vcmc"
        + "CJDk2NjQ0ZTcxLTVkMmYtNDNlYy1hMzE1LWQ1N2M4YzM4YmE1NDJmMQ"
    ],
    "huggingface-access-token": ["HF_TOKEN is " + "hf_" + "qWeRtYuIoPaSdFgHjKlZxCvBnMqWeRtYuI"],
    "digitalocean-pat": ["doctl auth init -t " + "dop_v1_" + "0f1e2d3c4b5a6978" * 4],
    "databricks-api-token": [
        "databricks host token " + "dapi" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    ],
    "telegram-bot-token": [
        "bot = Bot(" + "5829104736" + ":AA" + "Fq9Rz2Lw8Kp3Xv7Nm1Bc6Hd4Jt0Ys5Ug2" + ")"
    ],
    "vault-service-token": ["VAULT_TOKEN is " + "hvs." + "CAESI" + "aB3dE6gH9jK2mN5pQ8sT1v" * 4],
    "age-secret-key": [
        "AGE-SECRET-KEY-1" + "QYZ7K2P8W3N6R9T4V5X0Y2Z7K2P8W3N6R9T4V5X0Y2Z7K2P8W3N6R9T4V5"
    ],
    "service-key": ["mailgun sending with " + "key-" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0"],
    "env-secret": [
        "HEROKU_API_KEY=" + "7c9e6679-7425-40de-944b-e07fc1f90ae7",
        "DB_PASSWORD=" + "tr0ub4dor&3x",
        "export STRIPE_SECRET_KEY=" + "whsec1234abcd5678",
        "DEBUG=true\nAPI_KEY=" + "0123456789abcdef\n",
        "run it as DB_PASSWORD=" + "tr0ub4dor&3x" + " ./migrate",
    ],
    # Kinds no earlier rule named (issue 35), kept out by the hand-written rules.
    "connection-string-password": [
        "Server=tcp:db.example.net,1433;Database=shop;User Id=sa;Password="
        + "Xy7$kLm9!pQ2"
        + ";Encrypt=True",
        # the password pair first, the other pairs after it
        "Password=" + "Xy7$kLm9!pQ2" + ";Server=db.example.net;User Id=sa",
    ],
    "azure-sas-signature": [
        "https://acme.blob.core.windows.net/backups?sv=2022-11-02&sp=r&se=2026-01-01&sig="
        + "Zq8mR3wLx7Pk2Tn9Vb4Hy6Cd1Fg5Jk0Sa3Tu6Yi8Op"
        + "W%3D",
        "BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02"
        + "&ss=b&srt=co&sp=rl&sig="
        + "u7Kx2PqL9mZr4Tn8Vb6Hy1Cd5Fg0Js3Ua8Yi2OeW4rT"
        + "=",
    ],
    "netrc-password": [
        "machine api.example.org\n  login deploy\n  password " + "Zq8wE3rT6yU1",
    ],
    "curl-user-password": ["curl -u admin:" + "Sup3rS3cret!" + " https://ci.internal/api/json"],
    "properties-password": ["spring.datasource.password=" + "N0tS0S3cret-42"],
    "discord-webhook-url": [
        "DISCORD_HOOK=https://discord.com/api/webhooks/"
        + "471426766923993032/"
        + "zl0Hb9fEU3UvYiE_JbC_70xWcVGQMm3f"
        + "QJLCOxYBgX8aVBqV0EwP2_vpMta7mW_EFi8I",
        "posts to canary.discordapp.com/api/v10/webhooks/"
        + "1143503308481384529/"
        + "Sk3yL6njbyg_DJwhP2x5s4XAzd8Ll5CZQ7HG4x"
        + "fDRJhOTAIlb0UiPL4ykOZQNIHpd",
    ],
    "fcm-server-key": [
        "FCM server key: "
        + "AAAAqTmVk0P:APA91b"
        + "Wed4CDLV0f0TQYfvOmWh92beRaiM4HaQUhC9P7lGz7pUZtYV8_tAKxrzRJ2LqpTCXdEaF3IQMxR6EdrIz"
        + "L69WvycbwUVwofTOZV7mP7y55Fws9tzbCk9t2AFzHW3u7",
    ],
}
