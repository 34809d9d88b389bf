"""Fixtures of the LSP end-to-end test: `icp2c lsp` started as a subprocess
and driven by pytest-lsp's client, which announces VS Code's capabilities
(so pytest-lsp also checks every result against them)."""

import functools
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

REPO = pathlib.Path(__file__).resolve().parents[2]


def server_binary() -> pathlib.Path:
    """`$ICP2C` (relative to the repository's root when not absolute), else
    target/release/icp2c, else target/debug/icp2c."""
    named = os.environ.get("ICP2C")
    if named:
        path = pathlib.Path(named)
        return path if path.is_absolute() else REPO / path
    release = REPO / "target" / "release" / "icp2c"
    return release if release.exists() else REPO / "target" / "debug" / "icp2c"


SERVER = server_binary()


def pytest_configure(config):
    if not SERVER.is_file():
        raise pytest.UsageError(
            f"no icp2c binary at {SERVER}: run `cargo build --release`, or set ICP2C"
        )


def make_client() -> LanguageClient:
    """pytest-lsp's client, which also keeps every publishDiagnostics
    notification in order (`client.published`), versions included."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []

    def publish_diagnostics(params: types.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish_diagnostics
    register_lsp_features(client, features)
    return client


@functools.cache
def vs_code() -> types.ClientCapabilities:
    """VS Code's capabilities, as pytest-lsp records them (read once: it
    takes a good part of a second)."""
    return client_capabilities("visual-studio-code")


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[str(SERVER), "lsp"],
        client_factory=make_client,
    )
)
async def client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=vs_code(),
            root_uri=REPO.as_uri(),
        )
    )
    lsp_client.initialize_result = result
    yield
    await lsp_client.shutdown_session()
