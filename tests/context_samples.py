"""Secrets that only their context makes secrets (issue 48), for the guard's tests.

``DESIGN`` is what the context rules were written on; ``HELD_OUT_1`` and ``HELD_OUT_2``
were written afterwards, each in one go (``tests/engine/test_context_rules.py`` says what
each found on its first run). ``STATEMENTS`` are forms added after them, each with its
kind and the value found: SQL that sets a password, a sentence that puts the value right
after the word naming it, and command lines (a tool's own password flag, a value piped
into what reads a password on its standard input, a password the command names by its
place, one joined to its user). ``ROUND_32`` holds session 32's forms (an assignment quoted whole,
a call given one literal, sentences in other languages, lists of codes and words),
``ROUND_33`` session 33's (a typed declaration, a header as a name and a value field, a
signed cookie, HTTPie's and SNMP's credentials, sentences in Russian and Chinese,
Japanese, Korean). None of these values is real.
"""

from __future__ import annotations

BCRYPT = "N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"
PKCS8 = (
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7"
    "NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvuNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s"
)
PKCS12 = "MIIKcQIBAzCCCjcGCSqGSIb3DQEHAaCCCigEggokMIIKIDCCBLcGCSqGSIb3DQEHBqCCBKgwggSkAgEAMIIEnQYJ"
CERT = "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UEChMJQmFsdGlt"

DESIGN = [
    "requirepass foobared9",
    "[database]\nhost = db1\npassword = Hunter2x!",
    "db:\n  admin_pass: s3cr3tPa55\n",
    "<settings><password>Sup3rS3cret!</password></settings>",
    "mysql -u root -psecret mydb",
    "mysqldump -uroot -pHunter2 --all-databases",
    "psql --password Pa55w0rd!x",
    "wget --http-password=kq83jd9s http://x",
    'curl -H "Authorization: Token 9f8e7d6c5b4a39281706" https://api',
    'Authorization: Digest username="bob", realm="x", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093",'
    ' response="6629fae49393a05397450978507c4ef1"',
    'curl -H "X-Api-Key: 8d7f6a5s4d3f2g1h0j9k7l6m" https://x',
    "| Env | User | Password |\n|---|---|---|\n| staging | admin | Tr0ub4dor&3 |\n",
    "The admin password is hunter2x.",
    "the staging key is AKx93jfq0sLw2mZ8",
    "localhost:5432:mydb:admin:s3cretpw",
    "admin:$apr1$8sa9Xj3k$Zq0a1b2c3d4e5f6g7h8i9/",
    "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
    "ldap: {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=",
    "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPublic-Lines: 1\nAAAAB3NzaC1yc2E\n"
    "Private-Lines: 2\nAAABAQCb9f8e7d6c5b4a3\nAAAAgQDa1b2c3d4\nPrivate-MAC: abc\n",
    '{"kty":"RSA","n":"0vx7agoebGc","e":"AQAB","d":"X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJ"}',
    f"keystore: {PKCS12}",
    f"key: {PKCS8}",
]
HELD_OUT_1 = [
    'DB_PASS="Zx9!qLm2"',
    "[redis]\nauth_password = 'n8Vq#r2Lp'",
    'smtp:\n  passwd: "M41lS3rv!"',
    '<datasource username="app" passwd="Q7w!e9Rt" />',
    "<Secret>hG7k2Lm9Qx4Pz8Rw</Secret>",
    'proxy_set_header Authorization "Basic YWRtaW46UzNjcjN0ITk=";',
    "db.internal:6432:*:replicator:R3pl!cat0r",
    'sqlcmd -S db -U sa -P "Str0ng!Pa55w0rd"',
    "docker login -u deploy -p 8fK2mQ9zL4xW registry.io",
    "X-Auth-Token: 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
    "Authorization: ApiKey bXlrZXk6c2VjcmV0dmFsdWUxMjM=",
    "| Service | Login | Passphrase |\n|---|---|---|\n| vpn | ops | c0rrect-h0rse-9 |",
    "The root password for the NAS was Kq7#mP2x, change it.",
    "Our Stripe secret key is rk9Lm2Qx8Zt4Wp7Vn3",
    f"deploy:$2y$10${BCRYPT}",
    "alice:$y$j9T$Xq2Lm8Pz4Rw7Tn3V$Kd8sLq2mZ9xW4cV7bN1hT6gR3yP5zA0eQ8iO2uJ4kL6:19500:0:99999:7:::",
    "pbkdf2_sha256$600000$f0oSa1tQ$kX3mZ8q2Lw9Pz4Rt7Vn3Bc6Hd1Jf5Gk8=",
    '{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg"}',
    "[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=",
    "mail.smtp.password:Zq!84mnT",
    "use the passphrase `blue-Falcon-88` to unlock the vault",
]
HELD_OUT_2 = [
    "db_password   =   v7#Kq9mZ",
    '- name: DB_PASSWORD\n  value: "Qp4!zM8r"',
    '{"user": "svc", "pwd": "H8j!k2Lm"}',
    'password = "Tf9#xQ2w"',
    "amqp://guest:Rb7!mQ2x@rabbit:5672/",
    "Note: the wifi passcode is 48213907.",
    "**Password:** Mx7!qz9K",
    "| Name | API Token |\n| --- | --- |\n| ci | 7Hk2mQ9xL4pW8zR3vN6b |",
    "environment:\n  - POSTGRES_PASSWORD=pg!Secr3t9",
    "[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcCJGI4",
    'String dbPassword = "Hk#82mQz";',
    'new NetworkCredential("svc", "P4ss!w0rdX9")',
    "key: MHcCAQEEIBkg8z3Dq1Ue2wJm9k7ZbQ0xR5yL8nP4vT6sH2aF1cE9oAoGCCqGSM49AwEHoUQDQgAE",
    "AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQ",
]
STATEMENTS: list[tuple[str, str, str]] = [
    # (kind, sample, the value the context rule finds: what is redacted)
    ("sql-password", "CREATE USER app IDENTIFIED BY 'S3cretPw!9';", "S3cretPw!9"),
    ("sql-password", "CREATE USER 'report'@'%' IDENTIFIED BY 'Rep0rt#2024';", "Rep0rt#2024"),
    (
        "sql-password",
        "ALTER USER 'root'@'localhost' IDENTIFIED WITH caching_sha2_password BY 'R00t!pass9';",
        "R00t!pass9",
    ),
    ("sql-password", "GRANT SELECT ON app.* TO 'ro'@'%' IDENTIFIED BY \"Gr4nt$Ro\";", "Gr4nt$Ro"),
    ("sql-password", "CREATE USER scott IDENTIFIED BY Tiger2024x;", "Tiger2024x"),
    (
        "sql-password",
        "CREATE DATABASE LINK sales CONNECT TO app IDENTIFIED BY Lnk9pass7 USING 'orcl';",
        "Lnk9pass7",
    ),
    ("sql-password", "ALTER ROLE app WITH PASSWORD 'S3cretPw!9';", "S3cretPw!9"),
    (
        "sql-password",
        "CREATE ROLE reporting LOGIN PASSWORD 'r3p0rt!ng' VALID UNTIL '2030-01-01';",
        "r3p0rt!ng",
    ),
    ("sql-password", "alter user postgres with encrypted password 'Pg$uper2024';", "Pg$uper2024"),
    (
        "sql-password",
        "CREATE ROLE etl WITH\n  LOGIN\n  CREATEDB PASSWORD 'mUlt1L!ne9';",
        "mUlt1L!ne9",
    ),
    ("sql-password", "CREATE LOGIN app WITH PASSWORD = 'S3cretPw!9'", "S3cretPw!9"),
    ("sql-password", "ALTER LOGIN sa WITH PASSWORD = N'Sa#Strong99';", "Sa#Strong99"),
    ("sql-password", "CREATE MASTER KEY ENCRYPTION BY PASSWORD = N'M4ster!Key77';", "M4ster!Key77"),
    ("sql-password", "SET PASSWORD FOR 'app'@'%' = 'S3cretPw!9'", "S3cretPw!9"),
    ("sql-password", "SET PASSWORD = PASSWORD('Legacy#77x');", "Legacy#77x"),
    (
        "sql-password",
        "GRANT ALL ON db.* TO bob@'%' IDENTIFIED VIA ed25519 USING PASSWORD('M4ria!Db9');",
        "M4ria!Db9",
    ),
    ("sql-password", "EXEC sp_addlogin 'bob', 'Sp4dd!Login';", "Sp4dd!Login"),
    ("sql-password", "CONNECT TO sample USER db2inst1 USING Db2!Pass77;", "Db2!Pass77"),
    ("sql-password", "CREATE ROLE r WITH PASSWORD = 'C4ss!Role' AND LOGIN = true;", "C4ss!Role"),
    (
        "sql-password",
        "CREATE USER MAPPING FOR bob SERVER remote OPTIONS (user 'bob', password 'Fdw#Pass42');",
        "Fdw#Pass42",
    ),
    ("prose-secret", "use the password P@ssw0rd99 to log in", "P@ssw0rd99"),
    ("prose-secret", "Log in with password Xk9#mq2Wz, then rotate it.", "Xk9#mq2Wz"),
    ("prose-secret", "The default passphrase 7Rb!x9Lq2 opens the backup archive.", "7Rb!x9Lq2"),
    (
        "prose-secret",
        "set the passphrase to correct-horse-battery-staple-42",
        "correct-horse-battery-staple-42",
    ),
    ("prose-secret", "Please change your password to Wint3r-2025#x tomorrow.", "Wint3r-2025#x"),
    ("prose-secret", "We reset the admin password for jdoe to Qz7#rT2p yesterday.", "Qz7#rT2p"),
    (
        "prose-secret",
        "The redis password is requirepass f7Hk29LmQpX3zR8w in production",
        "f7Hk29LmQpX3zR8w",
    ),
    (
        "prose-secret",
        "In production we set requirepass f7Hk29LmQpX3zR8w in redis.conf",
        "f7Hk29LmQpX3zR8w",
    ),
    (
        "prose-secret",
        "The keepalived peers share auth_pass K33p!al1ve on both nodes.",
        "K33p!al1ve",
    ),
    ("prose-secret", "slapd.conf still has rootpw S3cr3tLd4p9 from the install", "S3cr3tLd4p9"),
    ("prose-secret", "add masterauth Repl1ca#99 to the replica's config", "Repl1ca#99"),
    (
        "prose-secret",
        "api key 9f8e7d6c5b4a39281706f5e4d3c2b1a0 for the maps service",
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ),
    (
        "prose-secret",
        "the access token 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c expires on Friday",
        "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
    ),
    (
        "prose-secret",
        "Our license key 7HK2MQ9XL4PW8ZR3VN6B is in the ticket.",
        "7HK2MQ9XL4PW8ZR3VN6B",
    ),
    ("prose-secret", "Hk#82mQz!x is the root password.", "Hk#82mQz!x"),
    ("prose-secret", "the password for prod: Hunter2x!9", "Hunter2x!9"),
    ("prose-secret", "Credentials: admin / Zq8#pL3m", "Zq8#pL3m"),
    ("prose-secret", "login deploy/Pa55w0rd!x for the console", "Pa55w0rd!x"),
    ("prose-secret", "Credentials for the staging dashboard: admin / Gx7!pL2qZm", "Gx7!pL2qZm"),
    ("prose-secret", "VPN password - Kq7#mP2x9 (rotate monthly)", "Kq7#mP2x9"),
    ("flag-secret", "sshpass -p 'hunter2!xQ' ssh deploy@host", "hunter2!xQ"),
    ("flag-secret", "sshpass -p 'Xk9#mq2W' ssh admin@host", "Xk9#mq2W"),
    ("flag-secret", "redis-cli -h cache -a 'R3d1s!Auth'", "R3d1s!Auth"),
    ("flag-secret", "ldapsearch -x -D 'cn=admin' -w 'Ld4p!Bind' -b dc=ex", "Ld4p!Bind"),
    (
        "flag-secret",
        "ldapmodify -H ldap://dc1 -D cn=admin -w Bind#Pw77 -f change.ldif",
        "Bind#Pw77",
    ),
    ("flag-secret", "sqlcmd -S tcp:db,1433 -d app -P 'Sq1!Serv3r' -Q \"select 1\"", "Sq1!Serv3r"),
    ("flag-secret", 'plink -ssh -pw "Pu77y!Pass" admin@10.0.0.5', "Pu77y!Pass"),
    ("flag-secret", "mysql -h db -pMySq1Pass! appdb", "MySq1Pass!"),
    (
        "flag-secret",
        "echo 'S3cretPw!9' | docker login --username bot --password-stdin",
        "S3cretPw!9",
    ),
    ("flag-secret", 'echo "Hx92!kLmQ" | podman login quay.io -u bot --password-stdin', "Hx92!kLmQ"),
    (
        "flag-secret",
        "printf '%s' 'Helm#Reg9x' | helm registry login ghcr.io --username bot --password-stdin",
        "Helm#Reg9x",
    ),
    ("flag-secret", "echo 'Sud0!Pass' | sudo -S apt-get update", "Sud0!Pass"),
    ("flag-secret", "echo 'deploy:Depl0y!Pw' | chpasswd", "deploy:Depl0y!Pw"),
    (
        "flag-secret",
        "docker login registry.io -u ci --password-stdin <<< 'Her3!Str1ng'",
        "Her3!Str1ng",
    ),
    ("flag-secret", "net use \\\\server\\share /user:admin P@ssw0rd99", "P@ssw0rd99"),
    (
        "flag-secret",
        "net use Z: \\\\files\\projects Sh4re#Pass /user:CORP\\svc /persistent:no",
        "Sh4re#Pass",
    ),
    ("flag-secret", 'NET USE \\\\nas\\backup /USER:backup "Nas B4ckup!"', "Nas B4ckup!"),
    ("flag-secret", "net user deploy D3ploy!Net /add", "D3ploy!Net"),
    ("flag-secret", "xfreerdp /v:rdp.corp.lan /u:admin /p:Rdp!Pass42 /cert:ignore", "Rdp!Pass42"),
    ("flag-secret", "htpasswd -b /etc/nginx/.htpasswd admin N9x!kq2L", "N9x!kq2L"),
    ("flag-secret", "htpasswd -nbB ops 'Ht!pass77'", "Ht!pass77"),
    (
        "flag-secret",
        "$cred = ConvertTo-SecureString 'P0wer!Shell9' -AsPlainText -Force",
        "P0wer!Shell9",
    ),
    ("flag-secret", "ssh-keygen -t ed25519 -N 'K3y!Phrase9' -f ~/.ssh/deploy", "K3y!Phrase9"),
    ("flag-secret", "smbclient //fs/share -U alice%Smb!Pass42 -c ls", "Smb!Pass42"),
    ("flag-secret", "sqlplus system/0racle!Pw9@//db:1521/ORCLPDB1", "0racle!Pw9"),
    ("flag-secret", "expdp hr/Hr!Export77@orcl directory=dp schemas=hr", "Hr!Export77"),
]

ROUND_2: list[tuple[str, str, str]] = [
    # (kind, sample, the value found), values and wordings other than the probe's
    (
        "cookie-secret",
        "Cookie: JSESSIONID=A7F3C9E21B8D4F60A2C5E7B9D1F3A5C7; lang=en",
        "A7F3C9E21B8D4F60A2C5E7B9D1F3A5C7",
    ),
    (
        "cookie-secret",
        "< Set-Cookie: _myapp_session=bG9uZ3Nlc3Npb24xMjM0NTY3ODkw--a1b2c3d4e5; path=/; HttpOnly",
        "bG9uZ3Nlc3Npb24xMjM0NTY3ODkw--a1b2c3d4e5",
    ),
    (
        "cookie-secret",
        "curl --cookie 'connect.sid=s%3AkP9xQ2mL7vR4tW8z.Hq3N' https://app.local/me",
        "s%3AkP9xQ2mL7vR4tW8z.Hq3N",
    ),
    (
        "cookie-secret",
        'document.cookie = "remember_token=7d1e0b9c4a2f8e6d3b5a1c9f7e2d4b6a; max-age=3600";',
        "7d1e0b9c4a2f8e6d3b5a1c9f7e2d4b6a",
    ),
    (
        "config-secret",
        '<appSettings>\n  <add key="Smtp.Password" value="Ml4!rT9q" />\n</appSettings>',
        "Ml4!rT9q",
    ),
    (
        "config-secret",
        '{"key": "stripe_secret", "value": "q8Wm2Zx7Lp4Rt9Vn3Bc6", "type": "secret"}',
        "q8Wm2Zx7Lp4Rt9Vn3Bc6",
    ),
    ("config-secret", '<entry key="jdbc.password">Jd8c#Pw3x</entry>', "Jd8c#Pw3x"),
    ("config-secret", '<param name="adminPassword">Adm1n$ecure</param>', "Adm1n$ecure"),
    ("pgpass-password", "echo 'pg-replica:5433:*:standby:Stb9!yPw' >> ~/.pgpass", "Stb9!yPw"),
    ("pgpass-password", 'printf "%s\\n" "*:*:analytics:etl:Etl#2pass" > .pgpass', "Etl#2pass"),
    (
        "table-secret",
        "+----+---------+-------------+\n| id | user    | password    |\n"
        "+----+---------+-------------+\n"
        "|  1 | grafana | Gr4f!ana77  |\n+----+---------+-------------+\n1 row in set (0.00 sec)",
        "Gr4f!ana77",
    ),
    (
        "table-secret",
        " rolname | rolpassword \n---------+-------------\n app     | Pg#r0le55\n(1 row)",
        "Pg#r0le55",
    ),
    ("table-secret", "service,username,password\nsmtp,mailer,M4il!er2024\n", "M4il!er2024"),
    (
        "table-secret",
        "name\tapi_key\nsentry\t3c9f1e7a5b2d8c4f6a0e9b7d5c3a1f8e\n",
        "3c9f1e7a5b2d8c4f6a0e9b7d5c3a1f8e",
    ),
    ("table-secret", "host;login;pwd\nftp.local;backup;Bk8#up!x\n", "Bk8#up!x"),
    (
        "prose-secret",
        "Log in to Jenkins as ci-bot with Jk9!build2 and trigger the job.",
        "Jk9!build2",
    ),
    ("prose-secret", "then sign in as operator using 'Op3r@tor#5'", "Op3r@tor#5"),
    ("prose-secret", "I logged on as svc_backup with 8hQ2nV7xKp4z yesterday", "8hQ2nV7xKp4z"),
]
"""Forms of round 2 (session 26), each with its kind and the value found."""

ROUND_3: list[tuple[str, str, str]] = [
    # (kind, sample, the value found), values, languages and tools other than the probe's
    ("call-secret", "define('SMTP_PASS', 'Sm7p!Relay42');", "Sm7p!Relay42"),
    ("call-secret", 'setenv("SMTP_PASSWORD", "Sm7p!Env42", 1);', "Sm7p!Env42"),
    (
        "call-secret",
        'System.setProperty("javax.net.ssl.keyStorePassword", "K3yst0re#Pw");',
        "K3yst0re#Pw",
    ),
    ("call-secret", "parser.set('auth', 'password', 'C0nf!gParser9')", "C0nf!gParser9"),
    ("call-secret", "r = requests.post(url, auth=('bot', 'B0t!Reqs#7'))", "B0t!Reqs#7"),
    ("call-secret", 'auth = HTTPDigestAuth("svc", "D1gest&Pw99")', "D1gest&Pw99"),
    (
        "call-secret",
        'es = Elasticsearch(hosts, basic_auth=("elastic", "El4stic!Pw"))',
        "El4stic!Pw",
    ),
    ("call-secret", "smtp.login('alerts@corp.io', 'Sm7pL0gin!')", "Sm7pL0gin!"),
    ("call-secret", "mongo> db.auth('root', 'M0ng0#Root')", "M0ng0#Root"),
    ("config-secret", "ENV['STRIPE_SECRET'] = 'Str1pe$Secr3t'", "Str1pe$Secr3t"),
    ("config-secret", "$ENV{DB_PASS} = 'Perl#Pass77';", "Perl#Pass77"),
    (
        "config-secret",
        'headers = {"X-Pagerduty-Key": "a4c123b1612dd272d1371c17149d4395"}',
        "a4c123b1612dd272d1371c17149d4395",
    ),
    (
        "config-secret",
        "x-tenant-key: f1f836f99eee3692f09e2e8c662248b4",
        "f1f836f99eee3692f09e2e8c662248b4",
    ),
    (
        "flag-secret",
        "aws configure set aws_session_token IQoJb3JpZ2luX2VjEJr8Kp2Lm9Qx4Zw7 --profile ci",
        "IQoJb3JpZ2luX2VjEJr8Kp2Lm9Qx4Zw7",
    ),
    (
        "flag-secret",
        "yarn config set npmAuthToken Yrn8Kq2Lp9Zx4Wm7Rv3Bt6Cy1Dn",
        "Yrn8Kq2Lp9Zx4Wm7Rv3Bt6Cy1Dn",
    ),
    (
        "flag-secret",
        "launchctl setenv GITHUB_TOKEN 3f9a8b7c6d5e4f3a2b1c0d9e",
        "3f9a8b7c6d5e4f3a2b1c0d9e",
    ),
    ("flag-secret", "ENV NPM_TOKEN npm0Kq7mZ2pL9vR4tW8xN3bY", "npm0Kq7mZ2pL9vR4tW8xN3bY"),
    (
        "flag-secret",
        "travis env set SONAR_TOKEN 8f3a9c2e7b1d4f6a0c5e9b2d7f1a",
        "8f3a9c2e7b1d4f6a0c5e9b2d7f1a",
    ),
    (
        "flag-secret",
        "aws secretsmanager create-secret --name prod/db/password --secret-string 'Sm!Pw77x'",
        "Sm!Pw77x",
    ),
    ("flag-secret", "127.0.0.1:6380> AUTH default R3dis#Acl9", "R3dis#Acl9"),
    ("prose-secret", "Staging DB: pwd Kx7!mQ2pLz", "Kx7!mQ2pLz"),
    ("prose-secret", "the garage door key is Gd4#rK9mQ for now", "Gd4#rK9mQ"),
]
"""Forms of round 3 (session 27), each with its kind and the value found."""

_TYPED = "Jk8!mQ2w" + "Zx7Lp4Rn"
_DJANGO = "k2(p%9x)w-" + "7!zq4#m8vr" + "(3t+b6)y0n"
_BEARER = "vQx1dTHm9eBF" + "cJgZ8ca4mZXL" + "DcHz9hOE3BYN"
_CODES = ["9a5a9-31de4", "5182c-89257", "5579f-51d45", "be586-251af", "784b0-b7472"]
_CODES_LINES = "\n".join(_CODES)
_SEED = "appear ankle about antique address alley amount air actor alert arrow ability"
_SEED_LIST = "\n".join(f"{i}. {w}" for i, w in enumerate(_SEED.split(), 1))
ROUND_32: list[tuple[str, str, str]] = [
    # An assignment quoted whole: its value runs to the closing quote, whatever it holds.
    ("config-secret", '[Service]\nEnvironment="DJANGO_SECRET_KEY=' + _DJANGO + '"', _DJANGO),
    ("config-secret", "environment:\n  - 'DB_PASSWORD=" + _TYPED + "'", _TYPED),
    ("config-secret", 'docker run -e "API_TOKEN=' + _DJANGO + '" app', _DJANGO),
    # A flag named for a bearer token (curl's --oauth2-bearer).
    ("flag-secret", "curl --oauth2-bearer " + _BEARER + " https://api.x.io/v2", _BEARER),
    # A password stated in a sentence in another language.
    ("prose-secret", "Le mot de passe du compte root est " + _TYPED + ", à changer.", _TYPED),
    ("prose-secret", "Das Passwort für den WLAN-Router lautet " + _TYPED + "!", _TYPED),
    ("prose-secret", "la contraseña del servidor de pruebas es " + _TYPED, _TYPED),
    ("prose-secret", "A senha do banco é " + _TYPED, _TYPED),
    ("prose-secret", "La password del database è " + _TYPED, _TYPED),
    ("prose-secret", "Het wachtwoord is nu " + _TYPED + ".", _TYPED),
    ("prose-secret", "Mot de passe : " + _TYPED, _TYPED),
    ("prose-secret", "Kennwort für Jenkins: " + _TYPED, _TYPED),
    ("prose-secret", "Le mot de passe de la base est « " + _TYPED + " ».", _TYPED),
    ("prose-secret", "Das Passwort lautet „" + _TYPED + "“.", _TYPED),
    # A call named for a credential, given one generated-looking literal.
    ("call-secret", 'let c = Client::new().bearer_auth("' + _BEARER + '");', _BEARER),
    ("call-secret", 'Stripe.setApiKey("' + _BEARER + '")', _BEARER),
    ("call-secret", "auth = new Token('" + _BEARER + "');", _BEARER),
    # One-time codes and a wallet's words listed after the words naming them.
    ("recovery-codes", "GitHub recovery codes:\n" + _CODES_LINES, _CODES_LINES),
    (
        "recovery-codes",
        "backup codes: " + _CODES_LINES.replace("\n", " "),
        _CODES_LINES.replace("\n", " "),
    ),
    ("seed-phrase", "wallet seed phrase: " + _SEED, _SEED),
    ("seed-phrase", "Secret Recovery Phrase:\n" + _SEED_LIST, _SEED_LIST),
    # A value that starts as a YAML tag does but ends its line is a value.
    ("config-secret", "db:\n  secret: !" + _TYPED, "!" + _TYPED),
]
"""Session 32's forms, each with its kind and the value found: each missed before (its
probe's general misses)."""

_PG_MD5 = "md5" + "a3556571e93b0d20722ba62be61e8c2d"
_PEM_B64 = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0t" + "LQpNSUlFb3dJQkFBS0NBUUVBeHl6Cg=="
"""Base64 of a PEM RSA private key's first line and a little of its body."""
_SHORT_KEY = "Lgzc4Gb" + "NKAihii"
"""A generated value of 14 characters: short for an API key, not for one named secret."""
_NEXUS = "NpmToken." + "c3a9e1f2-7b4d-4a8e-9f1c-2d6b8e0a4c71"
_FLASK = "eyJ1c2VyX2lkIjo0Mn0" + ".ZkX1aQ." + "xd9CBRAcreNLHbduPousLpHCgbM"
_RAILS = "4icoDVWQKCIUV3lNMjE+UPj34BYmkLTA0KOv--" + "da7347d54249c56c3cb4fe44bf678449d63aef1e"
ROUND_33: list[tuple[str, str, str]] = [
    # A declaration with its type, or a literal made a string, assigned to a credential.
    ("config-secret", 'const API_TOKEN: &str = "' + _BEARER + '";', _BEARER),
    ("config-secret", 'val dbPassword: String = "' + _TYPED + '"', _TYPED),
    ("config-secret", 'let password = String::from("' + _TYPED + '");', _TYPED),
    ("config-secret", 'String password = new String("' + _TYPED + '");', _TYPED),
    # A key named secret takes a generated value shorter than an API key's.
    ("config-secret", 'val secretKey = "' + _SHORT_KEY + '"', _SHORT_KEY),
    ("flag-secret", "ENV API_SECRET_KEY " + _SHORT_KEY, _SHORT_KEY),
    # A Wi-Fi pre-shared key; a token whose prefix names it (Nexus' npm token).
    ("config-secret", 'network={\n    ssid="corp"\n    psk="' + _TYPED + '"\n}', _TYPED),
    ("config-secret", "//nexus.corp.local/repository/npm/:_authToken=" + _NEXUS, _NEXUS),
    # A password that starts with "%", which no reference is.
    ("prose-secret", "La password del database è %" + _TYPED, "%" + _TYPED),
    # A header as a name field and a value field (HAR, Postman).
    ("http-authorization", '{"name": "Authorization", "value": "Bearer ' + _BEARER + '"}', _BEARER),
    (
        "cookie-secret",
        '{"name": "Cookie", "value": "sessionid=' + _BEARER.lower() + '; csrftoken=abc"}',
        _BEARER.lower(),
    ),
    # A Set-Cookie value without its header; a value itsdangerous signed.
    ("cookie-secret", "_shop_session=" + _RAILS + "; path=/; HttpOnly", _RAILS),
    ("cookie-secret", "session=" + _FLASK, _FLASK),
    # HTTPie's -a user:password; an SNMP community.
    ("flag-secret", "http -a admin:" + _TYPED + " GET https://api.corp.local/users", _TYPED),
    ("flag-secret", "snmp-server community " + _TYPED + " RO", _TYPED),
    ("flag-secret", "snmpwalk -v2c -c " + _TYPED + " 10.0.0.1", _TYPED),
    # A table's "Pass" column; a user and password one logs in with.
    ("table-secret", "| Host | User | Pass |\n|---|---|---|\n| a | b | " + _TYPED + " |", _TYPED),
    ("table-secret", "| Host | Password |\n|-|-|\n| sftp | " + _TYPED + " |", _TYPED),
    ("prose-secret", "login with admin/" + _TYPED + " on the staging console", _TYPED),
    # A password stated in Russian, Chinese, Japanese and Korean.
    ("prose-secret", "Пароль от сервера: " + _TYPED, _TYPED),
    ("prose-secret", "пароль — " + _TYPED, _TYPED),
    ("prose-secret", "测试环境的密码是 " + _TYPED, _TYPED),
    ("prose-secret", "密码：" + _TYPED + "，请勿外传", _TYPED),
    ("prose-secret", "パスワードは " + _TYPED + " です", _TYPED),
    ("prose-secret", "비밀번호는 " + _TYPED + " 입니다", _TYPED),
    # Found after reading the guard: archivers' glued -p, lftp's user,password, HAProxy's
    # and strongSwan's own keywords, PostgreSQL's md5 hash, a PEM key in base64.
    ("flag-secret", "7z a -p" + _TYPED + " backup.7z dir/", _TYPED),
    ("flag-secret", "unrar x -p" + _TYPED + " a.rar", _TYPED),
    ("flag-secret", "lftp -u deploy," + _TYPED + " sftp://files.corp", _TYPED),
    ("config-secret", "listen stats\n  stats auth admin:" + _TYPED, _TYPED),
    ("config-secret", "userlist ops\n  user admin insecure-password " + _TYPED, _TYPED),
    ("config-secret", 'moon sun : PSK "' + _TYPED + '"', _TYPED),
    ("password-hash", '"pgbouncer" "' + _PG_MD5 + '"', _PG_MD5),
    ("private-key", "users:\n- user:\n    client-key-data: " + _PEM_B64, _PEM_B64),
]
"""Session 33's forms, each with its kind and the value found: each missed before (its
probe's misses)."""
