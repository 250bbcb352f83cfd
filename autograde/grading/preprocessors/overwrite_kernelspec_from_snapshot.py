"""nbgrader's OverwriteKernelspec, reading the source kernelspec from the per-process snapshot instead of the gradebook."""
from __future__ import annotations

import json

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import OverwriteKernelspec

from autograde.grading.source_snapshot import source_snapshot


class OverwriteKernelspecFromSnapshot(OverwriteKernelspec):
    """Give the submission the source notebook's kernelspec."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Overwrite nb.metadata.kernelspec when the source notebook has one."""
        info = resources["nbgrader"]
        kernelspec = source_snapshot(info["db_url"], info["assignment"], info["notebook"]).notebook.kernelspec
        if kernelspec:
            nb.metadata["kernelspec"] = json.loads(kernelspec)
        return nb, resources
