"""Known frameworks and test tools, by the dependency names that reveal them."""

from __future__ import annotations

import re
from collections.abc import Iterable

FRAMEWORKS: dict[str, str] = {
    # Python
    "textual": "textual", "rich": "rich", "typer": "typer", "click": "click",
    "fastapi": "fastapi", "django": "django", "djangorestframework": "django-rest-framework",
    "flask": "flask", "starlette": "starlette", "litestar": "litestar", "quart": "quart",
    "sanic": "sanic", "tornado": "tornado", "aiohttp": "aiohttp", "pyramid": "pyramid",
    "falcon": "falcon", "bottle": "bottle", "pydantic": "pydantic", "sqlalchemy": "sqlalchemy",
    "sqlmodel": "sqlmodel", "alembic": "alembic", "celery": "celery", "streamlit": "streamlit",
    "gradio": "gradio", "dash": "dash", "scrapy": "scrapy", "numpy": "numpy", "pandas": "pandas",
    "polars": "polars", "torch": "pytorch", "tensorflow": "tensorflow", "jax": "jax",
    "keras": "keras", "scikit-learn": "scikit-learn", "transformers": "transformers",
    "sentence-transformers": "sentence-transformers", "langchain": "langchain",
    "llama-index": "llama-index", "lancedb": "lancedb", "mcp": "mcp", "pyside6": "pyside6",
    "pyqt5": "pyqt", "pyqt6": "pyqt", "kivy": "kivy", "pygame": "pygame", "grpcio": "grpc",
    # JavaScript / TypeScript
    "react": "react", "react-dom": "react", "next": "next", "vue": "vue", "nuxt": "nuxt",
    "svelte": "svelte", "@sveltejs/kit": "sveltekit", "@angular/core": "angular",
    "solid-js": "solid", "preact": "preact", "astro": "astro", "@remix-run/react": "remix",
    "express": "express", "fastify": "fastify", "koa": "koa", "hono": "hono",
    "@nestjs/core": "nestjs", "electron": "electron", "react-native": "react-native",
    "expo": "expo", "tailwindcss": "tailwindcss", "@prisma/client": "prisma",
    "prisma": "prisma", "typeorm": "typeorm", "drizzle-orm": "drizzle", "mongoose": "mongoose",
    "graphql": "graphql", "@apollo/client": "apollo", "@apollo/server": "apollo",
    "redux": "redux", "@reduxjs/toolkit": "redux", "zustand": "zustand", "ink": "ink",
    "commander": "commander", "yargs": "yargs", "@modelcontextprotocol/sdk": "mcp",
    "socket.io": "socket.io", "three": "three.js", "d3": "d3",
    # Rust
    "tokio": "tokio", "actix-web": "actix-web", "axum": "axum", "rocket": "rocket",
    "warp": "warp", "serde": "serde", "clap": "clap", "bevy": "bevy", "tauri": "tauri",
    "diesel": "diesel", "sqlx": "sqlx", "ratatui": "ratatui", "tonic": "tonic",
}  # fmt: skip

GO_FRAMEWORKS: dict[str, str] = {
    "github.com/gin-gonic/gin": "gin", "github.com/labstack/echo": "echo",
    "github.com/gofiber/fiber": "fiber", "github.com/go-chi/chi": "chi",
    "github.com/gorilla/mux": "gorilla/mux", "github.com/spf13/cobra": "cobra",
    "github.com/urfave/cli": "urfave/cli", "github.com/charmbracelet/bubbletea": "bubbletea",
    "gorm.io/gorm": "gorm", "google.golang.org/grpc": "grpc", "k8s.io/client-go": "client-go",
    "sigs.k8s.io/controller-runtime": "controller-runtime",
}  # fmt: skip

TEST_TOOLS: dict[str, str] = {
    "pytest": "pytest", "pytest-asyncio": "pytest-asyncio", "pytest-cov": "pytest-cov",
    "pytest-xdist": "pytest-xdist", "pytest-mock": "pytest-mock",
    "pytest-textual-snapshot": "pytest-textual-snapshot", "hypothesis": "hypothesis",
    "tox": "tox", "nox": "nox", "coverage": "coverage", "behave": "behave", "syrupy": "syrupy",
    "robotframework": "robotframework", "jest": "jest", "vitest": "vitest", "mocha": "mocha",
    "chai": "chai", "jasmine": "jasmine", "ava": "ava", "@playwright/test": "playwright",
    "playwright": "playwright", "cypress": "cypress", "karma": "karma", "supertest": "supertest",
    "sinon": "sinon", "uvu": "uvu", "tap": "tap", "proptest": "proptest",
    "criterion": "criterion", "rstest": "rstest", "insta": "insta",
}  # fmt: skip

GO_TEST_TOOLS: dict[str, str] = {
    "github.com/stretchr/testify": "testify", "github.com/onsi/ginkgo": "ginkgo",
    "github.com/onsi/gomega": "gomega",
}  # fmt: skip

_CONFIG_FILES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(pytest\.ini|conftest\.py)"), "pytest"),
    (re.compile(r"tox\.ini"), "tox"),
    (re.compile(r"noxfile\.py"), "nox"),
    (re.compile(r"jest\.config\.\w+"), "jest"),
    (re.compile(r"vitest\.(config|workspace)\.\w+"), "vitest"),
    (re.compile(r"playwright\.config\.\w+"), "playwright"),
    (re.compile(r"cypress\.config\.\w+"), "cypress"),
    (re.compile(r"karma\.conf\.\w+"), "karma"),
    (re.compile(r".+_test\.go"), "go test"),
)


def python_package_name(name: str) -> str:
    """The comparable form of a Python distribution name (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def classify(dependencies: Iterable[str]) -> tuple[set[str], set[str]]:
    """Frameworks and test tools among normalised dependency names (Go module paths too)."""
    frameworks: set[str] = set()
    tools: set[str] = set()
    for dep in dependencies:
        if dep in FRAMEWORKS:
            frameworks.add(FRAMEWORKS[dep])
        if dep in TEST_TOOLS:
            tools.add(TEST_TOOLS[dep])
        elif dep.startswith("@testing-library/"):
            tools.add("testing-library")
        for prefix, label in GO_FRAMEWORKS.items():
            if dep == prefix or dep.startswith(prefix + "/"):
                frameworks.add(label)
        for prefix, label in GO_TEST_TOOLS.items():
            if dep == prefix or dep.startswith(prefix + "/"):
                tools.add(label)
    return frameworks, tools


def tool_from_file_name(file_name: str) -> str | None:
    """The test tool a configuration or test file name reveals, if any."""
    for pattern, tool in _CONFIG_FILES:
        if pattern.fullmatch(file_name):
            return tool
    return None
