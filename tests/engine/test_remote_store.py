"""The store of record on S3-compatible object storage (issue 22): configuration,
credentials kept out of files and logs, and a memory opened on a real S3 server (moto in
server mode on loopback, never a mock of LanceDB)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder
from s3_server import SECRET, S3Server, aws_env, start_server

from engine.core.config import load_config
from engine.core.errors import ConfigError, StorageError
from engine.core.hashing import content_hash
from engine.core.models import Entry
from engine.embedding.base import DIMENSION
from engine.services.entries import NewEntry
from engine.services.health import Status, diagnose
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import remote as remote_options
from engine.storage.record_store import RecordStore
from engine.storage.remote import remote_store


def machine(root: Path, uri: str) -> Memory:
    """A project folder whose store of record is ``uri`` (one "machine" of a team)."""
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "memory.config.toml").write_text(f'store_uri = "{uri}"\n')
    return Memory.open(root, embedder=FakeEmbedder())


def create_and_add_at_once(uri: str, machines: int) -> tuple[list[BaseException], int]:
    """``machines`` stores of record opened on one new ``uri`` at the same moment, each
    adding one entry: the errors raised and the entries the store then holds."""
    stores = [RecordStore(Path("unused"), DIMENSION, remote_store(uri)) for _ in range(machines)]
    start = threading.Barrier(machines)
    errors: list[BaseException] = []
    embedder = FakeEmbedder(dimension=DIMENSION)

    def write(n: int) -> None:
        text = f"machine {n} was there first"
        entry = Entry(
            id=f"m{n}",
            content=text,
            created_at="2026-01-01T00:00:00+00:00",
            updated_at="2026-01-01T00:00:00+00:00",
            content_hash=content_hash(text),
        )
        start.wait()
        try:
            stores[n].add([entry], embedder.embed_documents([text]))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(machines)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors, RecordStore(Path("unused"), DIMENSION, remote_store(uri)).count()


class TestConfiguration:
    def test_store_uri_from_the_file_and_the_environment(self, tmp_path: Path) -> None:
        (tmp_path / ".claude").mkdir()
        (tmp_path / ".claude" / "memory.config.toml").write_text('store_uri = "s3://a/b/"\n')
        assert load_config(tmp_path, env={}).store_uri == "s3://a/b"
        env = {"CLAUDE_MEMORY_STORE_URI": "gs://team/memory"}
        assert load_config(tmp_path, env=env).store_uri == "gs://team/memory"
        assert load_config(tmp_path, env={"CLAUDE_MEMORY_STORE_URI": ""}).store_uri == ""

    @pytest.mark.parametrize(
        "uri",
        [
            "s3://AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMIK7MDENG@bucket/prefix",
            "s3://bucket/prefix?aws_secret_access_key=wJalrXUtnFEMIK7MDENG",
            "s3://bucket/AKIAIOSFODNN7EXAMPLE/prefix",
            "az://container/prefix?sig=abcdef",
        ],
    )
    def test_credentials_in_the_uri_are_refused_without_repeating_them(
        self, tmp_path: Path, uri: str
    ) -> None:
        with pytest.raises(ConfigError) as info:
            load_config(tmp_path, env={"CLAUDE_MEMORY_STORE_URI": uri})
        message = str(info.value)
        assert "CLAUDE_MEMORY_STORE_URI holds credentials" in message
        assert "AWS_SECRET_ACCESS_KEY" in message
        assert "wJalr" not in message and "AKIAIOSFODNN7EXAMPLE" not in message

    def test_credential_keys_in_the_config_file_are_refused(self, tmp_path: Path) -> None:
        (tmp_path / ".claude").mkdir()
        path = tmp_path / ".claude" / "memory.config.toml"
        path.write_text('store_uri = "s3://a/b"\naws_secret_access_key = "wJalrXUtnFEMI"\n')
        with pytest.raises(ConfigError) as info:
            load_config(tmp_path, env={})
        assert "key 'aws_secret_access_key' holds credentials" in str(info.value)
        assert "wJalr" not in str(info.value)

    @pytest.mark.parametrize("uri", ["/srv/memory", "http://host/bucket", "s3://"])
    def test_other_locations_are_refused(self, tmp_path: Path, uri: str) -> None:
        with pytest.raises(ConfigError, match=r"expected s3://bucket/prefix"):
            load_config(tmp_path, env={"CLAUDE_MEMORY_STORE_URI": uri})


class TestObjectStoreOptions:
    def test_options_come_from_the_standard_environment(self) -> None:
        env = {
            "AWS_ENDPOINT_URL": "https://s3.example.com",
            "AWS_ACCESS_KEY_ID": "id",
            "AWS_SECRET_ACCESS_KEY": "shh",
            "AWS_REGION": "eu-west-3",
        }
        remote = remote_store("s3://b/p", environ=env)
        assert remote.options["aws_endpoint"] == "https://s3.example.com"
        assert remote.options["aws_secret_access_key"] == "shh"
        assert remote.options["aws_region"] == "eu-west-3"
        assert "allow_http" not in remote.options
        assert "shh" not in repr(remote) and "shh" not in remote.where

    @pytest.mark.parametrize("host", ["127.0.0.1:9000", "localhost:9000", "[::1]:9000"])
    def test_plain_http_is_allowed_on_loopback(self, host: str) -> None:
        remote = remote_store("s3://b/p", environ={"AWS_ENDPOINT_URL": f"http://{host}"})
        assert remote.options["allow_http"] == "true"

    def test_plain_http_elsewhere_needs_the_explicit_setting(self) -> None:
        env = {"AWS_ENDPOINT_URL": "http://minio.internal:9000"}
        with pytest.raises(StorageError, match=r"plain HTTP and not on this machine"):
            remote_store("s3://b/p", environ=env)
        assert remote_store("s3://b/p", allow_http=True, environ=env).options["allow_http"]

    def test_an_endpoint_with_a_password_is_named_without_it(self) -> None:
        env = {"AWS_ENDPOINT_URL": "https://user:hunter2@s3.example.com:9000"}
        remote = remote_store("s3://b/p", environ=env)
        assert remote.where == "s3://b/p (endpoint https://s3.example.com:9000)"

    def test_a_stopped_server_fails_in_seconds_not_minutes(self) -> None:
        options = remote_store("s3://b/p", environ={}).options
        assert options["client_max_retries"] == "3"
        assert options["client_retry_timeout"] == "10"


class TestMemoryOnS3:
    def test_entries_live_in_the_bucket_not_in_the_project(
        self, tmp_path: Path, s3_env: S3Server, caplog: pytest.LogCaptureFixture
    ) -> None:
        bucket = s3_env.bucket()
        caplog.set_level(logging.DEBUG)
        with machine(tmp_path / "a", f"s3://{bucket}/team") as memory:
            added = memory.add("LanceDB commits on S3 use conditional writes")
            assert parts_of(memory).store().count() == 1
            hits = memory.search("conditional writes", mode="keyword").results
            assert [h.entry.id for h in hits] == [added.entry.id]
        keys = s3_env.keys(bucket, "team/")
        assert any(k.startswith("team/memories.lance/_versions/") for k in keys)
        assert not (tmp_path / "a" / ".claude" / "memory" / "vectors").exists()
        assert (tmp_path / "a" / ".claude" / "memory" / "fts.sqlite").exists()
        assert SECRET not in caplog.text
        config = (tmp_path / "a" / ".claude" / "memory.config.toml").read_text()
        assert SECRET not in config and "AWS_" not in config


def found_within(memory: Memory, query: str, mode: str, entry_id: str, seconds: float) -> bool:
    """Whether a search finds ``entry_id`` within ``seconds`` (polled)."""
    deadline = time.monotonic() + seconds
    while True:
        hits = memory.search(query, mode=mode, limit=5, min_score=-1.0).results
        if entry_id in {h.entry.id for h in hits}:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


class TestTwoMachines:
    def test_an_add_on_one_is_found_on_the_other_within_5_s(
        self, tmp_path: Path, s3_env: S3Server
    ) -> None:
        uri = f"s3://{s3_env.bucket()}/team"
        with machine(tmp_path / "a", uri) as a, machine(tmp_path / "b", uri) as b:
            a.add("first note so that the table exists")
            assert found_within(b, "first note", "keyword", a.list()[0].id, 5.0)
            added = a.add("Compaction keeps old versions five minutes on object storage")
            assert found_within(b, "compaction versions", "keyword", added.entry.id, 5.0)
            assert found_within(b, "compaction object storage", "hybrid", added.entry.id, 5.0)
            # the other way round, and an update and a delete travel too
            back = b.add("Machine b answers with its own note about retries")
            assert found_within(a, "retries", "hybrid", back.entry.id, 5.0)
            a.update(back.entry.id, content="Machine b note about bounded retries, edited on a")
            assert found_within(b, "bounded", "keyword", back.entry.id, 5.0)
            assert a.delete(added.entry.id)
            deadline = time.monotonic() + 5.0
            while b.get(added.entry.id) is not None and time.monotonic() < deadline:
                time.sleep(0.2)
                b.count()
            assert b.get(added.entry.id) is None

    def test_a_new_machine_builds_its_mirror_and_vectors_from_the_store(
        self, tmp_path: Path, s3_env: S3Server
    ) -> None:
        uri = f"s3://{s3_env.bucket()}/team"
        with machine(tmp_path / "a", uri) as a:
            a.add_many([NewEntry(f"note {n} about topic{n}") for n in range(30)])
        fresh = FakeEmbedder()
        (tmp_path / "b" / ".claude").mkdir(parents=True)
        (tmp_path / "b" / ".claude" / "memory.config.toml").write_text(f'store_uri = "{uri}"\n')
        with Memory.open(tmp_path / "b", embedder=fresh) as b:
            assert b.last_repair is not None and b.last_repair.added == 30
            assert b.count() == 30 == parts_of(b).mirror.count()
            hits = b.search("topic7", mode="vector", limit=1).results
            assert hits[0].entry.content == "note 7 about topic7"
            assert fresh.texts_embedded == 0  # the vectors came with the entries


@pytest.mark.slow
class TestConcurrentWriters:
    def test_machines_creating_the_store_at_once_keep_every_note(self, s3_env: S3Server) -> None:
        # Lance commits a creation that loses the race as an overwrite of the winner's;
        # before lance_commits, 3 of 20 such rounds lost or refused a note.
        for _ in range(15):
            errors, count = create_and_add_at_once(f"s3://{s3_env.bucket()}/team", 4)
            assert errors == []
            assert count == 4

    def test_two_machines_adding_200_each_lose_nothing(
        self, tmp_path: Path, s3_env: S3Server
    ) -> None:
        uri = f"s3://{s3_env.bucket()}/team"
        a, b = machine(tmp_path / "a", uri), machine(tmp_path / "b", uri)
        errors: list[BaseException] = []

        def write(memory: Memory, name: str) -> None:
            try:
                for n in range(200):
                    memory.add(f"machine {name} note {n} token{name}{n}")
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=write, args=(m, n)) for m, n in ((a, "a"), (b, "b"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        try:
            assert parts_of(a).store().count() == 400
            # compacted while the other machine wrote (maintenance with several machines)
            assert parts_of(a).store().uncounted + parts_of(b).store().uncounted > 0
            for memory in (a, b):
                parts_of(
                    memory
                ).records.repair_index()  # what the next look at the remote version does
                assert parts_of(memory).mirror.count() == 400 == parts_of(memory).store().count()
                for name in ("a", "b"):
                    for n in range(0, 200, 7):
                        hits = memory.search(f"token{name}{n}", mode="keyword", limit=1).results
                        assert hits and hits[0].entry.content.endswith(f"token{name}{n}")
        finally:
            a.close()
            b.close()


WRITER = """
import sys
sys.path[:0] = {paths!r}
from pathlib import Path
from fakes import FakeEmbedder
from engine.services.memory import Memory
from engine.core.models import Entry

with Memory.open(Path({root!r}), embedder=FakeEmbedder()) as memory:
    n = 0
    while True:
        added = memory.add(f"acknowledged note {{n}} mark{{run}}x{{n}}")
        print(added.entry.id, flush=True)  # acknowledged: the add returned
        n += 1
"""


class TestKilledWriter:
    def test_kill_9_mid_add_loses_nothing_acknowledged(
        self, tmp_path: Path, s3_env: S3Server
    ) -> None:
        uri = f"s3://{s3_env.bucket()}/team"
        writer_root = tmp_path / "writer"
        machine(writer_root, uri).close()
        tests = Path(__file__).resolve().parents[1]
        script = WRITER.format(paths=[str(tests.parent), str(tests)], root=str(writer_root))
        acknowledged: list[str] = []
        for run in range(3):  # killed at three different points of an add
            proc = subprocess.Popen(
                [sys.executable, "-c", script.replace("{run}", str(run))],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert proc.stdout is not None
            for line in proc.stdout:
                acknowledged.append(line.strip())
                if len(acknowledged) % 8 == 0:
                    break
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        with machine(tmp_path / "other", uri) as other:
            stored = parts_of(other).store().get_many(acknowledged)
            assert len(set(acknowledged)) == len(acknowledged) == 24
            assert sorted(stored) == sorted(acknowledged)
            assert (
                parts_of(other).mirror.count()
                == parts_of(other).store().count()
                >= len(acknowledged)
            )
            for entry_id in acknowledged:
                mark = stored[entry_id].content.split()[-1]
                hits = other.search(mark, mode="keyword", limit=1).results
                assert hits and hits[0].entry.id == entry_id
        with machine(writer_root, uri) as writer:  # the killed machine repairs its mirror
            assert not parts_of(writer).mirror.pending
            assert parts_of(writer).mirror.count() == parts_of(writer).store().count()


class TestServerStopped:
    def test_a_clear_error_reads_from_the_mirror_and_nothing_lost(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        server = start_server()
        for name, value in aws_env(server.endpoint).items():
            monkeypatch.setenv(name, value)
        uri = f"s3://{server.bucket()}/team"
        a, b = machine(tmp_path / "a", uri), machine(tmp_path / "b", uri)
        try:
            ids = [a.add(f"before the outage {n} outage{n}").entry.id for n in range(5)]
            parts_of(b).records.repair_index()
            server.stop()
            started = time.monotonic()
            with pytest.raises(StorageError) as info:
                a.add("written while the server is down")
            assert time.monotonic() - started < 30  # seconds, not LanceDB's 3-minute retries
            assert f"the store of record at {uri}" in info.value.message
            assert "is unreachable" in info.value.message
            assert (
                parts_of(a).records.watch is not None and not parts_of(a).records.watch.due()
            )  # reads don't wait
            hits = b.search("outage3", mode="keyword").results
            assert [h.entry.id for h in hits] == [ids[3]]
            assert len(b.list()) == 5 and a.count() == 5
        finally:
            a.close()
            b.close()
        server.start()  # the same port, the same buckets
        try:
            with machine(tmp_path / "a", uri) as a2, machine(tmp_path / "c", uri) as c:
                assert sorted(e.id for e in c.list()) == sorted(ids)
                assert parts_of(a2).mirror.count() == parts_of(a2).store().count() == 5
                assert not parts_of(a2).mirror.pending
                a2.add("after the outage")
                assert parts_of(a2).store().count() == 6
        finally:
            server.close()


class TestDoctor:
    def test_doctor_reports_reachable_writable_versions_and_size(
        self, tmp_path: Path, s3_env: S3Server
    ) -> None:
        bucket = s3_env.bucket()
        with machine(tmp_path, f"s3://{bucket}/team") as memory:
            memory.add_many([NewEntry(f"note {n} about doctors") for n in range(3)])
            memory.add("one more")
        report = diagnose(tmp_path, FakeEmbedder())
        remote = next(c for c in report.checks if c.part == "remote store")
        assert remote.status is Status.OK, remote.detail
        assert remote.detail.startswith(f"s3://{bucket}/team (endpoint {s3_env.endpoint})")
        assert "reachable" in remote.detail and "probe table written and removed" in remote.detail
        assert "version 3, 3 versions kept, 4 entries in 2 fragments" in remote.detail
        assert report.healthy
        assert not [k for k in s3_env.keys(bucket) if "doctor_probe_" in k]  # cleaned up
        assert SECRET not in remote.detail

    def test_doctor_names_an_unreachable_store_and_what_to_check(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        server = start_server()
        for name, value in aws_env(server.endpoint).items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(remote_options, "MAX_RETRIES", "1")  # 1-2 s, not 5: a faster test
        uri = f"s3://{server.bucket()}/team"
        with machine(tmp_path, uri) as memory:
            memory.add("written before the outage")
        server.stop()
        try:
            report = diagnose(tmp_path, FakeEmbedder())
        finally:
            server.close()
        remote = next(c for c in report.checks if c.part == "remote store")
        assert remote.status is Status.PROBLEM
        assert f"the store of record at {uri}" in remote.detail
        assert "unreachable" in remote.detail and "AWS_ENDPOINT_URL" in remote.fix
        index = next(c for c in report.checks if c.part == "keyword index")
        assert "1 entries, left untouched" in index.detail
        assert not report.healthy

    def test_cli_doctor_on_a_remote_store(self, tmp_path: Path, s3_env: S3Server) -> None:
        bucket = s3_env.bucket()
        project = tmp_path / "project"
        (project / ".claude" / "memory").mkdir(parents=True)
        (project / ".claude" / "memory.config.toml").write_text(
            f'store_uri = "s3://{bucket}/team"\n'
        )
        result = run_cli("doctor", "--project", str(project), cwd=project, home=tmp_path)
        assert "remote store" in result.stdout, result.stdout + result.stderr
        assert f"s3://{bucket}/team" in result.stdout and "writable" in result.stdout
        assert SECRET not in result.stdout + result.stderr


class TestCli:
    def _project(self, root: Path, config: str) -> Path:
        git_repo(root)
        (root / ".claude" / "memory").mkdir(parents=True)
        (root / ".claude" / "memory.config.toml").write_text(config)
        return root

    def test_a_second_machine_searches_and_deletes_through_the_cli(
        self, tmp_path: Path, s3_env: S3Server
    ) -> None:
        uri = f"s3://{s3_env.bucket()}/team"
        first = self._project(tmp_path / "first", f'store_uri = "{uri}"\n')
        with Memory.open(first, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
            kept = memory.add("Sprocket tension is checked on Mondays").entry
            gone = memory.add("Sprocket grease comes from the blue tin").entry
        second = self._project(tmp_path / "second", f'store_uri = "{uri}"\n')
        found = run_cli("search", "sprocket", "--mode", "keyword", cwd=second, home=tmp_path)
        assert found.returncode == 0, found.stderr
        assert kept.content in found.stdout and gone.content in found.stdout
        deleted = run_cli("delete", gone.id, cwd=second, home=tmp_path)
        assert deleted.returncode == 0, deleted.stderr
        with Memory.open(first, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
            assert [e.id for e in memory.list()] == [kept.id]

    def test_credentials_in_the_config_stop_every_command(self, tmp_path: Path) -> None:
        project = self._project(
            tmp_path / "p", 'store_uri = "s3://AKIAIOSFODNN7EXAMPLE:wJalrXUtnF@bucket/x"\n'
        )
        result = run_cli("search", "anything", "--mode", "keyword", cwd=project, home=tmp_path)
        assert result.returncode != 0 and "Traceback" not in result.stderr
        assert "store_uri' holds credentials" in result.stderr
        assert "wJalrXUtnF" not in result.stderr + result.stdout
