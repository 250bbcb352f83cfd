"""Set-up shared by every test: test courses keep to their own gradebooks."""
from __future__ import annotations

import importlib.util
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


SCOPE_OF_FILE = {
    "test_hostile.py": "hostile_batch", "test_hostile_pages.py": "hostile_batch",
    "test_cluster.py": "dask_cluster", "test_parallel_autograde.py": "dask_cluster",
}
"""Test files that share a costly session fixture, each with that fixture's name. `make test` runs the tests on one
process per core (pytest-xdist): each file goes whole to one process (its module fixtures are built once, the
notebook's cells run in order), and the files of one shared fixture go to the same process, so it is built once."""

if importlib.util.find_spec("xdist") is not None:

    def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
        """xdist's scheduling by scope, the scope of a test being its shared fixture or else its file."""
        from xdist.scheduler import LoadScopeScheduling

        class SharedFixtureScheduling(LoadScopeScheduling):
            """Whole files to one process; the files of one shared fixture to the same one."""

            def _split_scope(self, nodeid: str) -> str:
                path = nodeid.split("::", 1)[0]
                return SCOPE_OF_FILE.get(path.rsplit("/", 1)[-1], path)

        return SharedFixtureScheduling(config, log)
