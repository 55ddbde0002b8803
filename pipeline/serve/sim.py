"""A small `relic sim` run on demand, in its own process group, its HTML report under build/."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_GAMES = 2000


@dataclass(frozen=True)
class SimRequest:
    players: int
    games: int = 50
    seed: int = 0

    def problem(self) -> str | None:
        if not 1 <= self.players <= 99:
            return f"players must be between 1 and 99, not {self.players}"
        if not 1 <= self.games <= MAX_GAMES:
            return f"games must be between 1 and {MAX_GAMES}, not {self.games}"
        if self.seed < 0:
            return "the seed is a whole number, 0 or more"
        return None


class SimRunner:
    """Runs `relic sim --html` as a child process; one run at a time."""

    def __init__(self, pack_dir: Path, out_root: Path):
        self.pack_dir = pack_dir
        self.report = out_root / "sim" / "report.html"
        self.process: asyncio.subprocess.Process | None = None

    def command(self, request: SimRequest) -> list[str]:
        return [sys.executable, "-m", "pipeline.cli", "sim", "--pack", self.pack_dir.name,
                "--content", str(self.pack_dir.parent), "--players", str(request.players),
                "--games", str(request.games), "--seed", str(request.seed),
                "--html", str(self.report)]

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def last(self) -> dict[str, Any] | None:
        """The report a previous run left under build/, if any."""
        if not self.report.is_file():
            return None
        return {"state": "done", "url": self._url(), "text": "",
                "written": self.report.stat().st_mtime, "diagnostics": []}

    def _url(self) -> str:
        sha = hashlib.sha256(self.report.read_bytes()).hexdigest()[:16]
        return f"/files/sim/report.html?v={sha}"

    async def run(self, request: SimRequest) -> dict[str, Any]:
        started = time.perf_counter()
        self.process = await asyncio.create_subprocess_exec(
            *self.command(request), stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL,
            start_new_session=True)
        out, err = await self.process.communicate()
        code = self.process.returncode
        self.process = None
        result: dict[str, Any] = {
            "state": "done" if code == 0 else "failed", "code": code,
            "text": out.decode("utf-8", "replace"), "errors": err.decode("utf-8", "replace"),
            "seconds": round(time.perf_counter() - started, 2), "written": time.time(),
            "request": {"players": request.players, "games": request.games,
                        "seed": request.seed}}
        if code == 0 and self.report.is_file():
            result["url"] = self._url()
        return result

    def stop(self) -> None:
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
