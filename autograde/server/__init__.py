"""A Jupyter Server extension beside formgrader: safe grading pages (CSP, rendering off the server's loop).

Enabled by jupyter-config/jupyter_server_config.d/autograde.json, which `pip install` puts in the environment.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_server.utils import url_path_join
from tornado import web

STATIC = Path(__file__).with_name("static")


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """Jupyter Server's entry point: this module is the extension."""
    return [{"module": "autograde.server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Serve our static files and the grading-by-question pages; put formgrader's pages under our policy."""
    from autograde.by_question.handlers import routes
    from autograde.server.formgrader_pages import protect_formgrader

    web_app = serverapp.web_app
    static = url_path_join(web_app.settings["base_url"], "/autograde/static/(.*)")
    web_app.add_handlers(".*$", [*routes(web_app.settings["base_url"]), (static, web.StaticFileHandler, {"path": str(STATIC)})])
    protect_formgrader()
    serverapp.log.info("autograde: formgrader pages served with a strict Content-Security-Policy; grading by question "
                       "at /autograde/by-question/<assignment>/<question>")
