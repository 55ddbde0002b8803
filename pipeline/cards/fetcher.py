"""A WeasyPrint URL fetcher that reads only the project's own asset folders."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from pipeline.fsutil import inside

MIME = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg",
        ".jpeg": "image/jpeg", ".css": "text/css", ".ttf": "font/ttf", ".otf": "font/otf",
        ".woff2": "font/woff2", ".woff": "font/woff"}


class SafeFetcher(URLFetcher):
    """Serves `file:` URLs under the allowed roots; refuses (and records) everything else.

    No network handler is ever opened: http, https, ftp, data and files outside the roots
    (including symlinks and `..` that resolve outside) are refused.
    """

    def __init__(self, roots: tuple[Path, ...]):
        super().__init__(allowed_protocols=("file",))
        self.roots = tuple(r.resolve() for r in roots)
        self.refused: list[str] = []

    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            return self._refuse(url)
        path = Path(unquote(parts.path))
        if not inside(path, self.roots) or not path.is_file():
            return self._refuse(url)
        mime = MIME.get(path.suffix.lower())
        if mime is None:
            return self._refuse(url)
        headers = {"Content-Type": mime}
        return URLFetcherResponse(url, path.read_bytes(), headers)

    def _refuse(self, url: str) -> URLFetcherResponse:
        self.refused.append(url)
        raise ValueError(f"refused to fetch {url}: outside the project's asset folders")
