"""A real S3-compatible server on loopback for the remote-store tests: moto in server
mode (``moto[server]``, the ``test`` extra), started once per test session."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

REGION = "us-east-1"
KEY_ID = "AKIAMEMORYTUITESTKEY"[:20]
SECRET = "memory-tui-test-secret-never-logged"


@dataclass
class S3Server:
    """A running moto server and how to reach it."""

    server: object
    endpoint: str
    port: int

    def client(self) -> object:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=KEY_ID,
            aws_secret_access_key=SECRET,
            region_name=REGION,
        )

    def bucket(self) -> str:
        """A new empty bucket (moto keeps every server's buckets in one process)."""
        name = f"mem-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)  # type: ignore[attr-defined]
        return name

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        """Every object key under ``prefix``."""
        pages = self.client().get_paginator("list_objects_v2")  # type: ignore[attr-defined]
        return [
            o["Key"]
            for p in pages.paginate(Bucket=bucket, Prefix=prefix)
            for o in p.get("Contents", [])
        ]


def start_server(port: int = 0) -> S3Server:
    """Start moto's S3 server on 127.0.0.1 (any free port unless ``port``)."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    host, bound = server.get_host_and_port()
    return S3Server(server, f"http://{host}:{bound}", bound)


def aws_env(endpoint: str) -> dict[str, str]:
    """The object store environment a machine of the team would have."""
    return {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": KEY_ID,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_REGION": REGION,
    }
