"""The Content-Security-Policy of a page the Jupyter server renders with student content in it."""
from __future__ import annotations

from typing import Any

from jupyter_server.utils import url_path_join

from autograde.building.offline_math import inline_scripts
from autograde.untrusted.csp import NOTEBOOK_PAGE, policy


def script_policy(handler: Any, *folders: str) -> str:
    """Scripts only from these static folders of the server (and the inline math scripts by hash); no other source."""
    origin = f"{handler.request.protocol}://{handler.request.host}"
    return policy(NOTEBOOK_PAGE | {"script-src": tuple(origin + url_path_join(handler.base_url or "/", folder)
                                                       for folder in folders)},
                  inline_scripts(), frame_ancestors=("'self'",))
