"""A real `jupyter server` (formgrader, our pages, JupyterLab) on loopback for browser tests, and a grader's login."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page

BIN = Path(sys.executable).parent


def free_port() -> int:
    """A TCP port on the loopback address that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def jupyter_server(course: Path, token: str) -> Iterator[str]:
    """`jupyter server` (formgrader and JupyterLab with it) from the course root while the block runs."""
    port = free_port()
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", JUPYTER_RUNTIME_DIR=str(course / ".runtime"))
    log = (course / "server.log").open("w")
    server = subprocess.Popen([str(BIN / "jupyter"), "server", "--no-browser", "--allow-root", f"--port={port}",
                               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}"],
                              cwd=course, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"jupyter server did not start: {(course / 'server.log').read_text()[-2000:]}")
                time.sleep(0.3)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def log_in(page: Page, base: str, token: str) -> None:
    """Log in with the token, as a grader does on the server's login page."""
    page.goto(f"{base}/login")
    page.fill("input[type=password]", token)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def grader_context(browser: Browser, base: str, token: str, window: dict[str, int]) -> BrowserContext:
    """A grader's browser logged in to the server at `base` (its first page open), every request off it refused."""
    context = browser.new_context(viewport=window)
    context.route(lambda url: not url.startswith(base), lambda route: route.abort("internetdisconnected"))
    log_in(context.new_page(), base, token)
    return context
