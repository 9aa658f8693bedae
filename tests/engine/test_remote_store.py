"""The store of record on S3-compatible object storage (issue 22): configuration,
credentials kept out of files and logs, and a memory opened on a real S3 server (moto in
server mode on loopback, never a mock of LanceDB)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from s3_server import SECRET, S3Server

from engine.core.config import load_config
from engine.core.errors import ConfigError, StorageError
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.storage.remote import remote_store


def machine(root: Path, uri: str) -> Memory:
    """A project folder whose store of record is ``uri`` (one "machine" of a team)."""
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "memory.config.toml").write_text(f'store_uri = "{uri}"\n')
    return Memory.open(root, embedder=FakeEmbedder())


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
            assert memory.store().count() == 1
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
            assert b.count() == 30 == b.mirror.count()
            hits = b.search("topic7", mode="vector", limit=1).results
            assert hits[0].entry.content == "note 7 about topic7"
            assert fresh.texts_embedded == 0  # the vectors came with the entries
