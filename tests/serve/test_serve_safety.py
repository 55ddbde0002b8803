"""Safety of `relic serve`: nothing but its build output and its own assets is ever served, it
listens on loopback unless told otherwise, changes need JSON, and it never writes content."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from pipeline.cli import build_parser
from pipeline.serve.app import allowed_hosts
from pipeline.serve.client import ServeProcess
from pipeline.serve.server import is_loopback
from tests.serve.conftest import ROOT, copy_pack

TRAVERSALS = [
    "/files/../pyproject.toml",
    "/files/..%2fpyproject.toml",
    "/files/..%2f..%2f..%2fcontent%2fvault%2fcards.yaml",
    "/files/%2e%2e/%2e%2e/content/vault/cards.yaml",
    "/files/%2e%2e%2f%2e%2e%2fcontent%2fvault%2fpack.yaml",
    "/files/.%2e/.%2e/content/vault/pack.yaml",
    "/files/ru/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/files/%252e%252e/%252e%252e/content/vault/pack.yaml",
    "/files//etc/passwd",
    "/files/%2fetc%2fpasswd",
    "/files/..\\..\\content\\vault\\pack.yaml",
    "/files/ru/%00manifest.json",
    "/static/..%2fapp.py",
    "/static/../../serve/app.py",
    "/static/%2e%2e/%2e%2e/cli.py",
    "/%2e%2e/%2e%2e/pyproject.toml",
    "/../../pyproject.toml",
]
LISTINGS = ["/files/", "/files/ru", "/files/ru/", "/files/ru/png/", "/static/", "/static"]


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_pack(tmp_path_factory.mktemp("safety"))


@pytest.fixture(scope="module")
def ready(pack: Path, render_cache: Path) -> Iterator[ServeProcess]:
    """One server for the module, its first build done."""
    serve = ServeProcess(["--content", str(pack.parent), "--out", str(pack.parent.parent / "out"),
                          "--cache", str(render_cache), "--jobs", "1"], cwd=ROOT)
    serve.start()
    stream = serve.events()
    try:
        stream.wait_for(lambda e: e.name == "built" and e.data["ok"], timeout=120)
        stream.close()
        yield serve
    finally:
        stream.close()
        serve.stop()


def test_traversal_attempts_get_404(ready: ServeProcess, pack: Path) -> None:
    out = pack.parent.parent / "out"
    (out / "escape.txt").symlink_to(pack / "cards.yaml")  # a symlink out of the build folder
    (out / "ru" / "png" / "escape-dir").symlink_to(pack, target_is_directory=True)
    (out / "ru" / ".hidden").write_text("not for the browser")
    secret = (pack / "cards.yaml").read_bytes()
    for path in [*TRAVERSALS, "/files/escape.txt", "/files/ru/png/escape-dir/cards.yaml",
                 "/files/ru/.hidden", "/files/.lock"]:
        status, body = ready.get(path)
        assert status == 404, f"{path} answered {status}"
        assert secret not in body and b"root:" not in body, path
    # the controls: what it is there to serve, it serves
    assert ready.get("/files/ru/manifest.json")[0] == 200
    assert ready.get("/static/app.js")[0] == 200
    state = ready.state()
    picture = state["items"][0]["front"]["url"]
    status, body = ready.get(picture)
    assert status == 200 and body.startswith(b"\x89PNG")
    assert hashlib.sha256(body).hexdigest().startswith(picture.rsplit("v=", 1)[1])


def test_no_directory_listings(ready: ServeProcess) -> None:
    for path in LISTINGS:
        status, body = ready.get(path)
        assert status == 404, f"{path} answered {status}"
        assert b"manifest.json" not in body and b"app.js" not in body


def test_the_default_bind_is_loopback_only(ready: ServeProcess) -> None:
    args = build_parser(["serve"]).parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000
    listening = [c for c in psutil.Process(ready.pid).net_connections(kind="inet")
                 if c.status == psutil.CONN_LISTEN]
    assert listening, "the server listens on no socket"
    assert {c.laddr.ip for c in listening} == {"127.0.0.1"}
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and not is_loopback("0.0.0.0")


def test_it_never_writes_content(ready: ServeProcess, pack: Path) -> None:
    def snapshot() -> dict[str, tuple[int, bytes]]:
        return {str(p.relative_to(pack)): (p.stat().st_mtime_ns, p.read_bytes())
                for p in sorted(pack.rglob("*")) if p.is_file()}

    before = snapshot()
    stream = ready.events()
    try:
        for name in ("odds", "rulebook"):
            status, _ = _post(ready, f"/api/reports/{name}")
            assert status == 202
            stream.wait_for(lambda e, n=name: e.name == "report" and e.data["name"] == n
                            and e.data["state"] != "running", timeout=120)
    finally:
        stream.close()
    assert snapshot() == before
    assert not [p for p in pack.rglob("*") if p.name.startswith(".")]


def _post(serve: ServeProcess, path: str, body: bytes = b"{}",
          content_type: str = "application/json") -> tuple[int, bytes]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": content_type})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_changes_must_be_json(ready: ServeProcess) -> None:
    form = _post(ready, "/api/sim", b"players=2", "application/x-www-form-urlencoded")
    assert form[0] == 415
    assert _post(ready, "/api/reports/odds", b"{}", "text/plain")[0] == 415
    assert ready.get("/api/sim")[0] == 405
    status, body = _post(ready, "/api/sim", b'{"players": 2, "games": 1000000000}')
    assert status == 400 and b"games" in body
    assert _post(ready, "/api/reports/secrets")[0] == 404


def test_foreign_host_names_are_refused(ready: ServeProcess) -> None:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", ready.port, timeout=30)
    try:
        connection.request("GET", "/api/state", headers={"Host": "attacker.example"})
        assert connection.getresponse().status == 400  # a DNS-rebinding page gets nothing
    finally:
        connection.close()
    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost", "::1", "[::1]"]
    assert allowed_hosts("192.0.2.7") == ["192.0.2.7"]
    assert allowed_hosts("0.0.0.0") == ["*"]


def test_responses_carry_safety_headers(ready: ServeProcess) -> None:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", ready.port, timeout=30)
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        assert response.status == 200 and b"<title>" in response.read()
        assert response.getheader("x-content-type-options") == "nosniff"
        assert response.getheader("x-frame-options") == "SAMEORIGIN"
    finally:
        connection.close()


def test_a_taken_port_is_one_clean_line(ready: ServeProcess, pack: Path,
                                        render_cache: Path) -> None:
    command = [sys.executable, "-m", "pipeline.cli", "serve", "--content", str(pack.parent),
               "--cache", str(render_cache), "--port", str(ready.port)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 1
    assert f"error[serve-bind]: cannot listen on 127.0.0.1:{ready.port}" in result.stderr
    assert "Traceback" not in result.stderr


def test_it_holds_the_cache_so_no_build_prunes_it(ready: ServeProcess,
                                                  render_cache: Path) -> None:
    """`relic build` prunes the shared render cache only when no other build holds it."""
    from pipeline.commands.output import CacheLock

    with CacheLock(render_cache) as lock:
        assert not lock.alone()
