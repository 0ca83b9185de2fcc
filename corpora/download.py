"""Download one archive: a mirror's credentials sent as HTTP basic auth and kept out of every message, a size
limit, and a deadline that a server trickling bytes cannot escape."""
from __future__ import annotations

import re
import urllib.request
from pathlib import Path, PurePosixPath
from typing import Callable

from .sources import FetchError, mib

# (name, bytes done, bytes in all or None): called while downloading
Progress = Callable[[str, int, "int | None"], None]


def mirror_address(url: str, mirror: str | None) -> str:
    """Where to download ``url`` from: ``mirror`` (checked) serving it under its official file name, else ``url``."""
    return f"{check_mirror(mirror).rstrip('/')}/{PurePosixPath(url).name}" if mirror else url


_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/@:]*):[^/]*@")


def redact(url: str) -> str:
    """``url`` with the password of its credentials shown as ``***`` (``http://user:***@host/…``)."""
    return _PASSWORD.sub(r"\1:***@", url)


def check_mirror(mirror: str) -> str:
    """``mirror`` if it is an http(s) URL with a host, or a file: URL; else a FetchError saying what it is."""
    from urllib.parse import urlsplit
    shown = redact(mirror)[:80]
    try:
        parts = urlsplit(mirror)
        parts.port  # noqa: B018  (parses the port: 'http://[::1' and 'http://h:x' fail here)
    except ValueError as exc:
        raise FetchError(_scrub(f"mirror {shown!r} is not a URL ({exc})", mirror)) from None
    if not ((parts.scheme in ("http", "https") and parts.hostname) or parts.scheme == "file"):
        raise FetchError(f"mirror {shown!r} is not an http(s):// or file: URL")
    return mirror


def _scrub(text: str, url: str) -> str:
    """``text`` without the password of ``url``'s credentials, wherever a library quoted it."""
    from urllib.parse import unquote, urlsplit
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    for secret in {password, unquote(password or "")} - {None, ""}:
        text = text.replace(secret, "***")
    return text


def _request(url: str) -> urllib.request.Request:
    """A request for ``url`` without its credentials, which go in an Authorization header (not sent on redirects)."""
    import base64
    from urllib.parse import unquote, urlsplit, urlunsplit
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or (parts.username is None and parts.password is None):
        return urllib.request.Request(url)
    host = parts.netloc.rpartition("@")[2]
    request = urllib.request.Request(urlunsplit(parts._replace(netloc=host)))
    token = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}".encode()
    request.add_unredirected_header("Authorization", "Basic " + base64.b64encode(token).decode("ascii"))
    return request


# A download must end within DEADLINE seconds: a server sending a byte now and then never trips the per-read
# timeout, and would stall a fetch for ever.
DEADLINE = 30 * 60


class _Watchdog:
    """Shuts down the sockets of one download once its deadline passes, wherever it waits (headers or body)."""

    def __init__(self, seconds: float):
        import threading
        self.sockets, self.fired = [], False
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        import socket
        self.fired = True
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def opener(self) -> urllib.request.OpenerDirector:
        """urllib's opener, its connections' sockets recorded (and its redirects followed, as urlopen does)."""
        import http.client
        sockets = self.sockets

        def recorded(base):
            class Connection(base):
                def connect(self):
                    super().connect()
                    sockets.append(self.sock)
            return Connection

        plain, secure = recorded(http.client.HTTPConnection), recorded(http.client.HTTPSConnection)

        class Handler(urllib.request.HTTPHandler):
            handler_order = 499  # before urllib's own HTTPSHandler, which build_opener adds too

            def http_open(self, req):
                return self.do_open(plain, req)

            def https_open(self, req):
                return self.do_open(secure, req)  # http.client's default TLS context

        return urllib.request.build_opener(Handler)

    def __enter__(self):
        self._timer.start()
        return self

    def __exit__(self, *exc):
        self._timer.cancel()


def download(url: str, dest: Path, progress: Progress | None = None, timeout: float = 60,
             limit: int | None = None, by_hand: str = "download it by hand and use --archive FILE") -> Path:
    """Stream ``url`` into ``dest``; a short read, an HTTP error, more than ``limit`` bytes, or a download longer
    than DEADLINE is a FetchError naming the address (its password hidden) and, when it
    could not download, ``by_hand``: what to do instead."""
    import http.client
    shown = redact(url)
    too_big = f"{shown}: more than {mib(limit or 0)}, far more than the release needs; refused"
    done, total, watchdog = 0, None, _Watchdog(DEADLINE)
    try:
        with watchdog, watchdog.opener().open(_request(url), timeout=timeout) as response, open(dest, "wb") as out:
            total = response.headers.get("Content-Length")
            total = int(total) if total and total.isdigit() else None
            if limit is not None and total is not None and total > limit:
                raise FetchError(f"{shown}: announces {mib(total)}, far more than the release needs "
                                 f"(at most {mib(limit)}); refused")
            read = getattr(response, "read1", response.read)  # what has come, not a full block
            while block := read(1 << 16):
                out.write(block)
                done += len(block)
                if limit is not None and done > limit:
                    raise FetchError(too_big)
                if progress:
                    progress(dest.name, done, total)
    except (OSError, http.client.HTTPException) as exc:  # URLError, HTTPError and socket errors are OSErrors
        if not watchdog.fired:
            raise FetchError(_scrub(f"cannot download {shown}: {exc}; {by_hand}", url)) from None
    if watchdog.fired:
        raise FetchError(f"{shown}: not finished after {DEADLINE:g} s ({done:,} bytes received); "
                         "the server stalls? refused")
    if total is not None and done != total:
        raise FetchError(f"{shown}: got {done} bytes of {total}; the download was cut short")
    return dest
