"""Running the preview app on uvicorn: a socket bound first (so a taken port is one clean line),
and Ctrl-C, SIGTERM and a closed terminal (SIGHUP) all stop it the same graceful way."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
from collections.abc import Callable
from typing import TextIO

from pipeline.diagnostics import RelicError, Span, error
from pipeline.serve.app import PreviewServer, create_app

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise RelicError([error("serve-bind", f"cannot listen on {host}:{port}: {exc.strerror}",
                                Span("<command line>"),
                                hint="pick another --port (0 takes any free one)")]) from None
    sock.listen(128)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def is_loopback(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host.strip("[]"), None)
    except socket.gaierror:
        return False
    import ipaddress

    return all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)


def serve(preview: PreviewServer, host: str, port: int, stream: TextIO = sys.stderr,
          on_ready: Callable[[str], None] | None = None) -> int:
    import uvicorn

    sock = bind(host, port)
    url = url_of(sock)
    app = create_app(preview, host)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)

    def stop(signum: int, frame: object) -> None:
        server.handle_exit(signum, frame)  # uvicorn's own graceful exit, whichever signal

    previous = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS}
    if not is_loopback(host):
        print(f"relic: warning: {host} is not a loopback address: anyone who can reach this "
              "machine can see the preview", file=stream, flush=True)
    print(f"relic: serving {preview.settings.pack_dir.name} at {url} (Ctrl-C stops)",
          file=stream, flush=True)
    if on_ready is not None:
        on_ready(url)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    finally:
        sock.close()
        preview.session.stop()  # already stopped by the app's shutdown, unless startup failed
        preview.sim.stop()
        for sig, handler in previous.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(sig, handler)
    print("relic: stopped", file=stream, flush=True)
    return 0
