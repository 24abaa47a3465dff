"""`coldchain openapi` prints the document the web client's contract test compares its schemas with."""

from __future__ import annotations

import json

from click.testing import CliRunner

from entrypoints.cli import main


def test_prints_the_openapi_document_the_api_serves():
    result = CliRunner().invoke(main, ["openapi"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["openapi"] == "3.0.3"
    assert "/api/device/Device/homeCounts" in document["paths"]
    assert "HomeCounts" in document["components"]["schemas"]
