"""Set-up shared by every test: test courses keep to their own gradebooks."""
from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def no_gradebook_url_from_the_shell() -> Iterator[None]:
    """Drop an NBGRADER_DB_URL the shell exports, so no test course autogrades into the instructor's real gradebook."""
    with pytest.MonkeyPatch.context() as environment:
        environment.delenv("NBGRADER_DB_URL", raising=False)
        yield
