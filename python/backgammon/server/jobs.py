"""This process's rollout jobs: the queue that bounds them (:class:`JobQueue`) and
the run of one (:func:`run_rollout`), its progress and result in the store."""

import logging
import threading
import time
from typing import Any

from backgammon.errors import BackgammonError
from backgammon.server import app as bounds   # the MAX_* bounds, read at each request

__all__ = ["JobQueue", "run_rollout"]

log = logging.getLogger("backgammon.server")


class JobQueue:
    """This process's rollout jobs, queued or running, and whose they are: at most
    ``per_client`` per client address and ``MAX_JOBS_QUEUED`` waiting; a job
    cancelled while it waits leaves at once.

    >>> q = JobQueue(1)
    >>> q.admit("j1", "10.0.0.1"), q.admit("j2", "10.0.0.1"), q.admit("j3", "10.0.0.2")
    (None, 'client', None)
    """

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._jobs: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def admit(self, job_id: str, client: str) -> str | None:
        """None (a place is held for ``job_id``), or why not: "client" or "full"."""
        with self._lock:
            if sum(j["client"] == client for j in self._jobs.values()) >= self.per_client:
                return "client"
            if sum(not j["started"] for j in self._jobs.values()) >= bounds.MAX_JOBS_QUEUED:
                return "full"
            self._jobs[job_id] = {"client": client, "started": False, "future": None}
            return None

    def attach(self, job_id: str, future: Any) -> None:
        with self._lock:
            if job_id in self._jobs:
                self._jobs[job_id]["future"] = future

    def release(self, job_id: str) -> None:
        with self._lock:
            self._jobs.pop(job_id, None)

    def cancel(self, job_id: str) -> bool:
        """Drop a job of this process that has not started; whether it did."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job["started"] or job["future"] is None \
                    or not job["future"].cancel():
                return False
            del self._jobs[job_id]
            return True

    def drop_cancelled(self, store: Any) -> int:
        """Drop the waiting jobs cancelled through another process; how many."""
        with self._lock:
            waiting = [j for j, job in self._jobs.items() if not job["started"]]
        gone = 0
        for job_id in waiting:
            job = store.job(job_id)
            if (job is None or job["cancel"]) and self.cancel(job_id):
                gone += 1
        return gone

    def run(self, job_id: str, fn: Any, *args: Any) -> None:
        """``fn(*args)`` as the job (in the jobs' thread), its place freed at the end."""
        try:
            with self._lock:
                if job_id not in self._jobs:
                    return
                self._jobs[job_id]["started"] = True
            fn(*args)
        finally:
            self.release(job_id)



class _Cancelled(Exception):
    pass


def run_rollout(store: Any, job_id: str, request: dict[str, Any]) -> None:
    """The rollout of job ``job_id`` (in the jobs' thread): its progress, result,
    cancellation or failure written to the store."""
    from backgammon.rollout import rollout
    job = store.job(job_id)
    if job is None or job["cancel"]:
        return
    store.update_job(job_id, status="running")
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.25 or done >= total:
            last[0] = now
            store.update_job(job_id, done=done, heartbeat=time.time())
            if store.job(job_id)["cancel"]:
                raise _Cancelled

    try:
        result = rollout(request["position"], games=request["games"], seed=request["seed"],
                         policy=request["policy"], cube=request["cube"],
                         variance_reduction=request["variance_reduction"],
                         truncate=request["truncate"], progress=progress)
        store.update_job(job_id, status="done", done=result.games, result=result.to_dict())
    except _Cancelled:
        store.update_job(job_id, status="cancelled")
    except BackgammonError as exc:
        store.update_job(job_id, status="failed", message=str(exc)[:500])
    except Exception:  # a bug: logged, the job says so
        log.exception("rollout %s failed", job_id)
        store.update_job(job_id, status="failed", message="internal error (logged on the server)")

