"""The OpenAPI schema and its docs page."""

import io
import re

from django.core.management import call_command


def test_schema_generates_without_warnings(db, tmp_path):
    target = tmp_path / "schema.yaml"
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(target), stdout=io.StringIO(), stderr=io.StringIO()
    )
    text = target.read_text()
    for path in (
        "/api/v1/submissions/",
        "/api/v1/submissions/{id}/timings/",
        "/api/v1/exercises/{slug}/",
        "/api/v1/exercises/{slug}/editorial/",
        "/api/v1/leaderboards/exercises/{slug}/",
    ):
        assert f"{path}:" in text
    assert "personalAccessToken" in text


def test_schema_and_docs_are_served_without_a_cdn(client, db):
    schema = client.get("/api/v1/schema")
    assert schema.status_code == 200 and b"openapi: 3" in schema.content
    docs = client.get("/api/v1/docs/")
    page = docs.content.decode()
    assert docs.status_code == 200 and "swagger-ui" in page and "/static/" in page
    # Every script and stylesheet is ours: no absolute or protocol-relative address. (Searching the page for
    # "cdn" also hit the random CSRF token once in about 700 runs.)
    addresses = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", page)
    assert addresses and not [address for address in addresses if re.match(r"(?:[a-z]+:)?//", address, re.IGNORECASE)]
