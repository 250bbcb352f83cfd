"""Grading on a Dask distributed cluster (c.Sandbox.cluster), beside the local pool of forked workers.

Importing this package imports nothing of Dask: only dask_pool does, when a cluster is configured.
"""


class ClusterUnavailable(RuntimeError):
    """The cluster cannot grade (scheduler unreachable, workers without a sandbox); the message is one line."""
