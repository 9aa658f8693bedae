"""Documentation kept in YAML is a source by its content: a manual written as data (jq's
``docs/content/manual/manual.yml``) is read line for line as markdown, and configuration
(a workflow, a compose file, a docs site's settings, a schema) is not documentation."""

from __future__ import annotations

from pathlib import Path

from cli_support import git_repo, run_cli
from project_files import sources, write

from engine.core.config import load_config
from engine.markdown.yaml_docs import (
    documented_by,
    reads_as_commented,
    reads_as_docs,
    yaml_as_markdown,
)
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources

BODY = (
    "A filter takes an input and produces an output. Filters can be combined in\n"
    "various ways: you can pipe the output of one filter into another filter, or\n"
    "collect the output of a filter into an array for the quokka to read later.\n"
)


def _section(title: str, words: str) -> str:
    body = "".join(f"          {line}\n" for line in (BODY + words).splitlines())
    return (
        f'      - title: "{title}"\n'
        "        body: |\n\n"
        f"{body}\n"
        "        examples:\n"
        "          - program: '.foo | length'\n"
        "            input: '{\"foo\": [1, 2]}'\n"
        "            output: ['2']\n"
    )


MANUAL = (
    "---\n"
    "headline: Tool Manual\n\n"
    "body: |\n\n" + "".join(f"  {line}\n" for line in BODY.splitlines()) + "\nsections:\n"
    "  - title: Basic filters\n"
    "    body: |\n\n"
    "      The filters below are the ones every program uses.\n\n"
    "    entries:\n"
    + _section("Identity: `.`", "The identity filter returns its input unchanged.\n")
    + _section("Pipe: `|`", "The pipe feeds the output of the left filter to the right one.\n")
)
CONFIGURATION = {
    "docker-compose.yml": (
        "services:\n  web:\n    image: nginx:1.27\n    ports: ['8080:80']\n"
        "    environment:\n      LOG_LEVEL: debug\n" * 6
    ),
    "mkdocs.yml": (
        "site_name: Tool\nnav:\n  - Home: index.md\n  - Guide: guide.md\n"
        "theme:\n  name: material\nmarkdown_extensions:\n  - admonition\n" * 5
    ),
    "deploy/service.yaml": (
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  labels: {app: api}\n"
        "spec:\n  ports:\n    - port: 80\n      targetPort: 8080\n---\n" * 8
    ),
    "schema/manual_schema.yml": (
        "type: object\nrequired: [headline, sections]\nproperties:\n"
        "  headline: {type: string, description: The title shown on top}\n" * 8
    ),
}


def test_a_manual_kept_as_yaml_reads_as_markdown_line_for_line() -> None:
    text = yaml_as_markdown(MANUAL)
    lines, source = text.split("\n"), MANUAL.split("\n")
    assert len(lines) == len(source)
    headings = [(source[i].strip(), line) for i, line in enumerate(lines) if line.startswith("#")]
    assert headings == [
        ("headline: Tool Manual", "# Tool Manual"),
        ("- title: Basic filters", "## Basic filters"),
        ('- title: "Identity: `.`"', "### Identity: `.`"),
        ('- title: "Pipe: `|`"', "### Pipe: `|`"),
    ]
    assert "A filter takes an input and produces an output. Filters can be combined in" in lines
    assert "The identity filter returns its input unchanged." in lines  # dedented
    assert "`.foo | length`" in lines and '`{"foo": [1, 2]}`' in lines
    assert not any("body:" in line or "examples:" in line for line in lines)


def test_yaml_is_documentation_only_when_its_values_are_mostly_prose(tmp_path: Path) -> None:
    write(tmp_path, {"docs/content/manual/manual.yml": MANUAL, **CONFIGURATION})
    assert sources(tmp_path) == ["docs/content/manual/manual.yml"]
    report = {f.decision.rel: f for f in explain_sources(tmp_path, load_config(tmp_path)).files}
    assert report["docs/content/manual/manual.yml"].decision.rule == "YAML"
    assert documented_by(MANUAL) == "values"
    for rel in CONFIGURATION:
        assert (report[rel].what, report[rel].decision.rule) == (
            "other",
            "not documentation or code",
        ), rel
        assert reads_as_docs(CONFIGURATION[rel]) is False


def test_yaml_left_out_by_a_folder_rule_is_reported_as_what_it_holds(tmp_path: Path) -> None:
    write(tmp_path, {"tests/manual.yml": MANUAL, "tests/ci.yml": CONFIGURATION["mkdocs.yml"]})
    report = {f.decision.rel: f for f in explain_sources(tmp_path, load_config(tmp_path)).files}
    manual = report["tests/manual.yml"]
    assert (manual.what, manual.decision.rule) == ("docs", "tests")
    assert report["tests/ci.yml"].what == "other"


def test_a_yaml_manual_is_searchable_by_its_sections(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {"docs/manual.yml": MANUAL})
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka", mode="keyword").results
    titles = {(h.entry.file_path, h.entry.section_title) for h in hits}
    assert ("docs/manual.yml", "Tool Manual > Basic filters > Identity: `.`") in titles
    first = next(h.entry for h in hits if h.entry.section_title.endswith("Pipe: `|`"))
    assert "feeds the output of the left filter" in first.content


def test_hostile_yaml_is_no_documentation_and_costs_little() -> None:
    laughs = ['lol0: &a0 "' + "lol " * 40 + '"']
    laughs += [f"lol{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, 10)]
    bomb = "\n".join(laughs) + '\nprose: "' + BODY.replace("\n", " ") + '"\n'
    # 9**9 paths lead to the same 40 words: read once, so this returns at once (a walk
    # that followed every alias would not return at all)
    assert reads_as_docs(bomb) is False
    assert sum("lol lol" in line for line in yaml_as_markdown(bomb).split("\n")) == 1
    deep = "a:\n" + "".join("  " * n + f"k{n}:\n" for n in range(1, 400)) + "  " * 400 + "v\n"
    assert yaml_as_markdown(deep).count("\n") == deep.count("\n")
    broken = MANUAL + "  - title: [unclosed\n"
    assert reads_as_docs(broken) is False
    assert yaml_as_markdown(broken).strip() == ""


def test_import_of_a_yaml_configuration_says_it_is_not_documentation(tmp_path: Path) -> None:
    project = git_repo(tmp_path / "p")
    write(project, {"docker-compose.yml": CONFIGURATION["docker-compose.yml"]})
    home = tmp_path / "home"
    done = run_cli("import", "docker-compose.yml", cwd=project, home=home)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    why = run_cli("sources", "--explain", "docker-compose.yml", cwd=project, home=home)
    assert why.stdout.startswith("out  docker-compose.yml  (other, not documentation or code)")


VALUES = """\
# Default values for the exporter chart.
# This is a YAML-formatted file; declare variables to be passed into your templates.
replicaCount: 1

image:
  repository: quay.io/prometheuscommunity/postgres-exporter
  # if not set, the appVersion field from Chart.yaml is used
  tag: ""
  # pullSecrets:
  #   - myRegistryKeySecretName

# Settings of the ServiceMonitor that the Prometheus operator reads to find the
# exporter, and how often it scrapes it.
serviceMonitor:
  # When set to true, a ServiceMonitor is created to configure the scraping
  enabled: false
  # How frequently Prometheus should scrape the exporter's metrics endpoint
  interval: 30s
  # Use the same authentication module for every target that is scraped
  sharedAuthModule:
    enabled: false

# The connection to the database the exporter reads its statistics from: the
# data source name, or a secret that holds it, when the password must stay out
# of the chart's values and be kept in a Kubernetes secret instead.
config:
  datasource:
    host: ""
    # The password is read from this secret when it is set, never from the values
    passwordSecret: {}
"""


def test_a_configuration_its_comments_document_is_documentation(tmp_path: Path) -> None:
    workflow = "# Runs the tests on every push.\n" + CONFIGURATION["mkdocs.yml"]
    write(tmp_path, {"charts/exporter/values.yaml": VALUES, "mkdocs.yml": workflow})
    assert reads_as_commented(VALUES) and not reads_as_docs(VALUES)
    assert documented_by(VALUES) == "comments"
    assert documented_by(workflow) is None  # a comment or two: configuration
    assert not any(documented_by(text) for text in CONFIGURATION.values())
    assert sources(tmp_path) == ["charts/exporter/values.yaml"]


def test_a_commented_configuration_reads_as_markdown_line_for_line() -> None:
    lines, source = yaml_as_markdown(VALUES).split("\n"), VALUES.split("\n")
    assert len(lines) == len(source)
    headings = [(i, line) for i, line in enumerate(lines) if line.startswith("#")]
    assert headings == [
        (4, "# image"),
        # the comment above a key opens its section: the heading takes its first line
        (11, "# serviceMonitor"),
        (18, "## sharedAuthModule"),
        (22, "# config"),
        (26, "## datasource"),
    ]
    assert lines[12:15] == [
        "Settings of the ServiceMonitor that the Prometheus operator reads to find the",
        "exporter, and how often it scrapes it.",
        "When set to true, a ServiceMonitor is created to configure the scraping",
    ]
    assert "interval: 30s" in lines and "- myRegistryKeySecretName" in lines  # dedented
    assert lines[0].startswith("Default values")  # a comment is its text, not a heading


def test_a_commented_configuration_is_searchable_by_its_keys(
    tmp_path: Path, memory: Memory
) -> None:
    write(tmp_path, {"charts/exporter/values.yaml": VALUES})
    assert Indexer(memory).run().errors == []
    hits = memory.search("password read from this secret", mode="keyword").results
    assert hits and hits[0].entry.file_path == "charts/exporter/values.yaml"
    assert hits[0].entry.section_title.endswith("config > datasource")
    assert "passwordSecret: {}" in hits[0].entry.content
    titles = {h.entry.section_title for h in memory.search("scrape", mode="keyword").results}
    assert any(t.endswith("serviceMonitor") for t in titles)
