"""A running `relic serve` seen from outside: start it, read its events, stop it by a signal.

The benchmark (bench/serve_bench.py) and the tests (tests/serve/) drive the real command
through this, the same way a browser would reach it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

URL = re.compile(r"serving \S+ at (http://\S+/)")


@dataclass(frozen=True)
class ServerEvent:
    name: str
    data: dict[str, Any]
    at: float  # time.perf_counter() when it arrived


class ServeProcess:
    """`relic serve --port 0 ...` in a child process; `url` once it listens."""

    def __init__(self, args: Sequence[str], cwd: Path | None = None,
                 env: dict[str, str] | None = None):
        self.args = [sys.executable, "-m", "pipeline.cli", "serve", "--port", "0", *args]
        self.cwd = cwd
        self.env = {**os.environ, "CI": "1", **(env or {})}
        self.process: subprocess.Popen | None = None
        self.url = ""
        self.lines: list[str] = []

    def start(self, timeout: float = 60.0) -> ServeProcess:
        self.process = subprocess.Popen(self.args, cwd=self.cwd, env=self.env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        found: queue.Queue[str] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout, found),
                         daemon=True).start()
        try:
            self.url = found.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise RuntimeError("relic serve did not start:\n" + "".join(self.lines)) from None
        return self

    def _read(self, stream: IO[str], found: queue.Queue[str]) -> None:
        for line in stream:
            self.lines.append(line)
            match = URL.search(line)
            if match:
                found.put(match[1])

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 80)

    def events(self) -> EventStream:
        return EventStream(self.port)

    def get(self, path: str) -> tuple[int, bytes]:
        """One GET; the raw path is sent as it is (nothing normalizes `..` on the way)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def state(self) -> dict[str, Any]:
        status, body = self.get("/api/state")
        if status != 200:
            raise RuntimeError(f"/api/state answered {status}")
        return json.loads(body)

    def send(self, sig: int = signal.SIGINT) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)

    def stop(self, sig: int = signal.SIGINT, timeout: float = 20.0) -> int | None:
        """Send `sig`, wait for the exit; kill it if it does not go. Returns the exit code."""
        if self.process is None:
            return None
        self.send(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


class EventStream:
    """The server-sent events of a running preview, collected by a reader thread."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.connection.request("GET", "/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.queue: queue.Queue[ServerEvent] = queue.Queue()
        self.seen: list[ServerEvent] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name, data = "message", []
        with contextlib.suppress(OSError, ValueError, AttributeError, http.client.HTTPException):
            while True:
                raw = self.response.readline()
                if not raw:
                    return
                line = raw.decode("utf-8").rstrip("\r\n")
                if not line:
                    if data:
                        payload = json.loads("\n".join(data))
                        self.queue.put(ServerEvent(name, payload, time.perf_counter()))
                    name, data = "message", []
                elif line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())

    def wait_for(self, test: Callable[[ServerEvent], bool], timeout: float = 60.0
                 ) -> ServerEvent:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                names = ", ".join(f"{e.name}{e.data}" for e in self.seen[-8:])
                raise TimeoutError(f"no such event within {timeout} s (last: {names})")
            try:
                event = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(event)
            if test(event):
                return event

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.close()
