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


def test_an_ansible_collection_says_its_version_from_galaxy_yml(tmp_path: Path) -> None:
    """ansible-collections/ansible.posix: "which version of the collection is this?" is
    ``galaxy.yml``'s ``version``, which no entry held."""
    root = write(tmp_path, {
        "galaxy.yml": (
            "---\nnamespace: acme\nname: posix\nversion: 3.0.0\nreadme: README.md\n"
            "authors:\n  - Acme\ndescription: Modules for POSIX systems.\n"
            "dependencies:\n  acme.utils: '>=1.2.0'\n"
        ),
        "plugins/modules/frob.py": "def main():\n    pass\n",
        "docs/galaxy.yml": "namespace: acme\n",  # no name nor version: not a collection's
    })  # fmt: skip
    (collection,) = titled(discovery_drafts(analyze(root)), "Ansible collection ")
    assert collection.file_path == "galaxy.yml"
    assert collection.section_title == "Ansible collection acme.posix: version and dependencies"
    assert "Modules for POSIX systems.\n- collection version: 3.0.0\n" in collection.content
    assert "Dependencies (collections):\n- acme.utils >=1.2.0" in collection.content


def test_a_puppet_module_says_its_version_requirements_and_systems(tmp_path: Path) -> None:
    """voxpupuli/puppet-nginx: "which Puppet versions and operating systems does it
    support?" is ``metadata.json``'s ``requirements`` and ``operatingsystem_support``."""
    root = write(tmp_path, {
        "metadata.json": (
            '{"name": "acme-nginx", "version": "6.0.2", "summary": "NGINX management",'
            ' "author": "Acme", "license": "MIT", "source": "https://example.org/nginx.git",'
            ' "dependencies": [{"name": "puppetlabs/stdlib", "version_requirement": ">= 5.0.0"}],'
            ' "requirements": [{"name": "puppet", "version_requirement": ">= 7.0.0 < 9.0.0"}],'
            ' "operatingsystem_support": [{"operatingsystem": "Debian",'
            ' "operatingsystemrelease": ["11", "12"]}, {"operatingsystem": "OpenBSD"}]}'
        ),
        "manifests/init.pp": "class nginx {\n}\n",
        "web/metadata.json": '{"name": "my-site", "version": "1", "dependencies": []}',
    })  # fmt: skip
    (module,) = titled(discovery_drafts(analyze(root)), "Puppet module ")
    assert module.file_path == "metadata.json"
    assert "NGINX management\n- module version: 6.0.2\n" in module.content
    assert "Requirements (the Puppet releases it runs on):\n- puppet >= 7.0.0 < 9.0.0\n" in (
        module.content
    )
    assert "Supported operating systems:\n- Debian 11, 12\n- OpenBSD\n" in module.content
    assert module.content.endswith("Dependencies (modules):\n- puppetlabs/stdlib >= 5.0.0")
