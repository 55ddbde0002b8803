"""The preview web app (Starlette): the page, its state as JSON, server-sent events, files.

Only two folders are ever read from: the build output of this preview and the app's own
`static/` assets (`StaticFiles` refuses paths that resolve outside them, symlinks included;
hidden names and directories are refused too, so nothing is listed). Requests that change
something (`POST`) must be JSON, which a foreign web page cannot send without the browser
asking first; the `Host` header must name this server (no DNS rebinding).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from pipeline.serve.messages import Request as BuilderRequest
from pipeline.serve.messages import Settings
from pipeline.serve.session import Session
from pipeline.serve.sim import SimRequest, SimRunner
from pipeline.serve.state import Event, Preview

STATIC = Path(__file__).resolve().parent / "static"
REPORTS = ("odds", "rulebook")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


class Files(StaticFiles):
    """`StaticFiles` that also refuses hidden names (staging folders, temp files)."""

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        if any(part.startswith(".") for part in Path(path).parts):
            return "", None
        return super().lookup_path(path)


class Hub:
    """Every open page's queue of events."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[Event | None]] = set()

    def publish(self, event: Event) -> None:
        for queue in self.queues:
            queue.put_nowait(event)

    def close(self) -> None:
        for queue in self.queues:
            queue.put_nowait(None)

    async def stream(self, first: Event) -> AsyncIterator[dict[str, str]]:
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        self.queues.add(queue)
        try:
            yield {"event": first.name, "data": json.dumps(first.data)}
            while (event := await queue.get()) is not None:
                yield {"event": event.name, "data": json.dumps(event.data, ensure_ascii=False)}
        finally:
            self.queues.discard(queue)


class PreviewServer:
    """The session, its state and the open pages, tied together in the server's event loop."""

    def __init__(self, settings: Settings, lang: str, editor_url: str, root: Path):
        self.settings = settings
        self.state = Preview(pack=settings.pack_dir.name, lang=lang, editor_url=editor_url,
                             root=str(root))
        self.hub = Hub()
        self.session = Session(settings, self.receive)
        self.sim = SimRunner(settings.pack_dir, settings.out_root)
        self.stopping: asyncio.Event | None = None
        self.tasks: set[asyncio.Task] = set()
        last = self.sim.last()
        if last is not None:
            self.state.reports["sim"] = last

    def receive(self, message: Any) -> None:
        if isinstance(message, BuilderRequest):
            event = (self.state.started(message.generation) if message.what == "cards"
                     else self.state.asked(message.what))
        else:
            event = self.state.receive(message)
        if event is not None:
            self.hub.publish(event)

    async def start(self) -> None:
        self.stopping = asyncio.Event()
        self.session.start()
        self._spawn(self.session.watch(self.stopping))

    def _spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def stop(self) -> None:
        if self.stopping is not None:
            self.stopping.set()
        self.hub.close()
        self.sim.stop()
        self.session.stop()
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def run_sim(self, request: SimRequest) -> None:
        self.state.reports["sim"] = {"state": "running", "request": vars(request)}
        self.hub.publish(Event("report", {"name": "sim", "state": "running"}))

        async def run() -> None:
            result = await self.sim.run(request)
            self.state.reports["sim"] = result
            self.hub.publish(Event("report", {"name": "sim", "state": result["state"]}))

        self._spawn(run())


# ----- routes ----------------------------------------------------------------------------------


def _server(request: Request) -> PreviewServer:
    return request.app.state.preview


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def state(request: Request) -> Response:
    return JSONResponse(_server(request).state.to_json(), headers={"Cache-Control": "no-store"})


async def events(request: Request) -> Response:
    preview = _server(request)
    hello = Event("hello", {"generation": preview.state.generation})
    return EventSourceResponse(preview.hub.stream(hello), ping=15)


async def _json_body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(415, "send JSON")
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "not JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "send a JSON object")
    return body


async def report(request: Request) -> Response:
    await _json_body(request)
    name = request.path_params["name"]
    if name not in REPORTS:
        raise HTTPException(404)
    _server(request).session.ask(name)
    return JSONResponse({"name": name, "state": "running"}, status_code=202)


async def sim(request: Request) -> Response:
    body = await _json_body(request)
    preview = _server(request)
    if preview.sim.running:
        return JSONResponse({"error": "a simulation is already running"}, status_code=409)
    try:
        wanted = SimRequest(int(body.get("players", 2)), int(body.get("games", 50)),
                            int(body.get("seed", 0)))
    except (TypeError, ValueError):
        return JSONResponse({"error": "players, games and seed are whole numbers"},
                            status_code=400)
    problem = wanted.problem()
    if problem:
        return JSONResponse({"error": problem}, status_code=400)
    preview.run_sim(wanted)
    return JSONResponse({"state": "running"}, status_code=202)


class SecurityHeaders:
    """Every response: no MIME sniffing, no framing by other sites, no referrer leaks."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope: Scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"x-content-type-options", b"nosniff"),
                            (b"x-frame-options", b"SAMEORIGIN"),
                            (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def allowed_hosts(host: str) -> list[str]:
    """The names a page may reach this server by: loopback names, or the address it binds."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]  # every interface: the user chose to share it
    if host in LOOPBACK_NAMES:
        return list(dict.fromkeys([host, *LOOPBACK_NAMES]))
    return [host]


def create_app(preview: PreviewServer, host: str = "127.0.0.1") -> Starlette:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await preview.start()
        try:
            yield
        finally:
            await preview.stop()

    out_root = preview.settings.out_root
    routes = [
        Route("/", index),
        Route("/api/state", state),
        Route("/events", events),
        Route("/api/reports/{name}", report, methods=["POST"]),
        Route("/api/sim", sim, methods=["POST"]),
        Mount("/static", Files(directory=STATIC), name="static"),
        Mount("/files", Files(directory=out_root, check_dir=False), name="files"),
    ]
    middleware = [Middleware(SecurityHeaders),
                  Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(host))]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.router.redirect_slashes = False  # /static is not found, rather than sent to /static/
    app.state.preview = preview
    return app
