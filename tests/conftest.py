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


@pytest.fixture(scope="session")
def hostile_batch(tmp_path_factory: pytest.TempPathFactory):
    """Every hostile submission and honest control graded in one batch, with feedback, export and the report (shared
    by the grading checks and the browser checks of the pages)."""
    import shutil

    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (make test installs it as root)")
    from hostile_course import grade_hostile_batch

    return grade_hostile_batch(tmp_path_factory.mktemp("hostile-course"), tmp_path_factory.mktemp("hostile-home"))


@pytest.fixture(scope="session")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory):
    """A Dask scheduler and two workers on 127.0.0.1 (skipped where `distributed` or bubblewrap is missing)."""
    import shutil

    pytest.importorskip("distributed", reason="the [cluster] extra is not installed (pip install -e '.[cluster]')")
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (make test installs it as root)")
    from dask_cluster import DaskCluster

    cluster = DaskCluster(tmp_path_factory.mktemp("dask")).start()
    yield cluster
    cluster.stop()
