"""Package manifests of ecosystems beyond the root's build files: each says which
version of what it ships, and only there."""

from __future__ import annotations

from pathlib import Path

from project_files import write

from engine.analyzer import DiscoveryDraft, analyze, discovery_drafts

CHART = """\
apiVersion: v2
appVersion: v3.4.4
kubeVersion: ">=1.25.0-0"
description: A Helm chart for Frob, a declarative
  delivery tool for Kubernetes.
name: frob
version: 10.1.1
dependencies:
  - name: redis-ha
    version: 4.38.0
    repository: https://example.org/charts/
    condition: redis-ha.enabled
"""


def titled(drafts: list[DiscoveryDraft], start: str) -> list[DiscoveryDraft]:
    return [d for d in drafts if d.section_title.startswith(start)]


def test_each_helm_chart_says_which_app_version_it_deploys(tmp_path: Path) -> None:
    """argoproj/argo-helm: "which Argo CD version does the argo-cd chart deploy?" is the
    chart's ``appVersion``, in its Chart.yaml only (no documentation source, no code)."""
    root = write(tmp_path, {
        "charts/frob/Chart.yaml": CHART,
        "charts/frob/values.yaml": "replicas: 1\n",
        "charts/other/Chart.yaml": "apiVersion: v2\nname: other\nversion: 0.1.0\n",
        "charts/broken/Chart.yaml": "- not a chart\n",
        "tests/fixtures/chart/Chart.yaml": "apiVersion: v2\nname: fixture\nversion: 1.0.0\n",
        "README.md": "# Charts\n\nHelm charts.\n",
    })  # fmt: skip
    charts = titled(discovery_drafts(analyze(root)), "Helm chart ")
    assert [d.file_path for d in charts] == ["charts/frob/Chart.yaml", "charts/other/Chart.yaml"]
    frob = charts[0]
    assert frob.section_title == "Helm chart frob: versions and dependencies"
    assert "A Helm chart for Frob, a declarative delivery tool for Kubernetes." in frob.content
    assert "- chart version: 10.1.1\n" in frob.content
    assert "app version (the version of the application the chart deploys): v3.4.4" in frob.content
    assert "- Kubernetes versions supported: >=1.25.0-0\n" in frob.content
    assert (
        "- redis-ha 4.38.0 (repository https://example.org/charts/) (condition redis-ha.enabled)"
        in frob.content
    )
