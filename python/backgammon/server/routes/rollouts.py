"""The rollout routes: start a rollout as a job, read its progress and result,
cancel it (its holder only)."""

import hashlib
import hmac
import secrets
from concurrent.futures import Executor
from typing import Any, Optional

from fastapi import FastAPI, Header, Request

from backgammon.server import app as bounds   # the MAX_* bounds, read at each request
from backgammon.server.errors import error
from backgammon.server.games import Forbidden, NotFound
from backgammon.server.jobs import JobQueue, run_rollout
from backgammon.server.limits import Limits
from backgammon.server.middleware import note_refusal
from backgammon.server.models import ErrorMessage, RolloutRequest
from backgammon.server.routes import valid_id
from backgammon.server.store import Store

__all__ = ["add_routes"]


def add_routes(app: FastAPI, store: Store, queue: JobQueue, jobs: Executor, owner: str,
               limits: Limits) -> None:
    """The ``/rollouts`` routes on ``app``: jobs run on ``jobs`` (one thread), held
    in ``queue``, owned in the store by this process (``owner``)."""

    @app.post("/rollouts", status_code=202, tags=["rollouts"],
              responses={400: {"model": ErrorMessage}, 429: {"model": ErrorMessage},
                         503: {"model": ErrorMessage}})
    def create_rollout(body: RolloutRequest, request: Request) -> Any:
        """Starts a rollout (a job): poll ``GET /rollouts/{id}`` for its progress
        and result, ``DELETE`` it to cancel (with ``Authorization: Bearer TOKEN``,
        the ``token`` of this answer, or from the same client address).  A client may have ``Limits.jobs``
        jobs queued or running (429 beyond); a process queues ``MAX_JOBS_QUEUED``
        (503 beyond); a cancelled job frees its place at once."""
        from backgammon.rollout import read_position
        read_position(body.position)  # a bad position is refused now, not in the job
        who = request.state.client
        job_id, cancel_token = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
        refused = queue.admit(job_id, who)
        if refused == "client":
            note_refusal(who, "rollout jobs")
            response = error(429, "TooManyRequests", f"{limits.jobs} rollouts per client at "
                             "once: wait for one to finish, or cancel one")
            response.headers["Retry-After"] = "10"
            return response
        if refused:
            response = error(503, "Busy",
                             f"{bounds.MAX_JOBS_QUEUED} rollouts are waiting: try later")
            response.headers["Retry-After"] = "30"
            return response
        try:
            job = body.model_dump()
            store.create_job(job_id, "rollout", job, body.games, owner=owner, client=who,
                             token=hashlib.sha256(cancel_token.encode()).hexdigest())
            queue.attach(job_id, jobs.submit(queue.run, job_id, run_rollout, store, job_id, job))
        except BaseException:
            queue.release(job_id)
            raise
        return {"id": job_id, "status": "queued", "done": 0, "total": body.games,
                "token": cancel_token}

    @app.get("/rollouts/{job_id}", tags=["rollouts"], responses={404: {"model": ErrorMessage}})
    def get_rollout(job_id: str) -> Any:
        """The job: ``status`` (queued, running, done, failed, cancelled),
        ``done`` of ``total`` games, and ``result`` once done.  A job whose
        process stopped (no heartbeat for ``JOB_LEASE_SECONDS``) is failed."""
        job = None
        if valid_id(job_id):
            store.expire_job(job_id, bounds.JOB_LEASE_SECONDS)
            job = store.job(job_id)
        if job is None or job["kind"] != "rollout":
            raise NotFound(f"no rollout {job_id[:64]!r}")
        job.pop("cancel")
        job.pop("heartbeat")
        return job

    @app.delete("/rollouts/{job_id}", tags=["rollouts"],
                responses={403: {"model": ErrorMessage}, 404: {"model": ErrorMessage}})
    def cancel_rollout(job_id: str, request: Request,
                       authorization: Optional[str] = Header(None)) -> Any:
        """Cancels the job: a queued one at once (its place is free), a running
        one within a quarter of a second.  Only its holder may: the ``token``
        given when it was created (``Authorization: Bearer TOKEN``), or the
        client address that created it (403 for anyone else)."""
        holder = store.job_holder(job_id) if valid_id(job_id) else None
        if holder is None:
            raise NotFound(f"no rollout {job_id[:64]!r}")
        client, token_hash = holder
        given = authorization[len("Bearer "):].strip() if authorization and \
            authorization.startswith("Bearer ") else None
        by_token = token_hash is not None and given is not None and hmac.compare_digest(
            token_hash, hashlib.sha256(given.encode()).hexdigest())
        if not by_token and client is not None and client != request.state.client:
            raise Forbidden("only the client that started this job, or its token "
                            "(Authorization: Bearer TOKEN), may cancel it")
        store.cancel_job(job_id)
        queue.cancel(job_id)
        return get_rollout(job_id)
