"""A Python policy's games per CPU second: the single env against ``VectorEnv``, same run.

    python benchmarks/env_policy.py [--envs 1024] [--seconds 3] [--repeat 3]
                                    [--encoding pgx] [--opponents self,self+gumbel,random,net,fast]

The policy is docs/env.md's CleanRL-style one: logits ``obs @ w`` (numpy, one
thread: ``OPENBLAS_NUM_THREADS=1`` unless set, as per-CPU-second figures would
otherwise count BLAS threads waiting), an id drawn from their softmax over
the legal ids.  The single env (``BackgammonEnv(opponent="random")``) calls it
once a decision on one observation, drawing with Gumbel noise in numpy; a
``VectorEnv(n, opponent=...)`` once a step for all ``n`` games, drawing with
``sample_actions(logits)`` in the core (``+gumbel``: with Gumbel noise in
numpy instead).  Opponents: ``"self"`` (self-play, the policy makes the
decisions of both seats), ``"random"``, and the default (``"net"``) and fast
(``"fast"``) nets played in the core.  Prints decisions (env steps) and
finished games per CPU second, the median of ``--repeat`` runs alternated,
and each VectorEnv's games per CPU second as a multiple of the single env's.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from backgammon.env import BackgammonEnv, VectorEnv  # noqa: E402
from backgammon.nn import Evaluator  # noqa: E402


def single(seconds: float, encoding: str) -> tuple[float, float]:
    env = BackgammonEnv(opponent="random", encoding=encoding, seed=1)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    w = rng.normal(size=(obs.shape[0], env.action_space.n)).astype(np.float32)
    steps = games = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        logits = obs @ w + rng.gumbel(size=w.shape[1])
        logits[~info["action_mask"]] = -np.inf
        obs, r, term, trunc, info = env.step(int(logits.argmax()))
        steps += 1
        if term or trunc:
            games += 1
            obs, info = env.reset()
    cpu = time.process_time() - c0
    return steps / cpu, games / cpu


def vector(n: int, opponent: str, seconds: float, encoding: str) -> tuple[float, float]:
    opponent, gumbel = opponent.removesuffix("+gumbel"), opponent.endswith("+gumbel")
    opp = Evaluator.fast() if opponent == "fast" else opponent
    envs = VectorEnv(n, opponent=opp, encoding=encoding, seed=1)
    obs, infos = envs.reset()
    rng = np.random.default_rng(0)
    w = rng.normal(size=(obs.shape[1], envs.single_action_space.n)).astype(np.float32)
    steps = games = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        if gumbel:
            logits = obs @ w + rng.gumbel(size=(n, w.shape[1]))
            logits[~envs.action_masks()] = -np.inf
            actions = logits.argmax(axis=1)
        else:
            actions = envs.sample_actions(obs @ w)
        obs, rewards, term, trunc, infos = envs.step(actions)
        assert not infos["illegal"].any()
        steps += n
        games += int((term | trunc).sum())
    cpu = time.process_time() - c0
    return steps / cpu, games / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--encoding", default="pgx")
    ap.add_argument("--opponents", default="self,self+gumbel,random,net,fast")
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    opponents = a.opponents.split(",")
    runs: dict[str, list[tuple[float, float]]] = {k: [] for k in ["single", *opponents]}
    for _ in range(a.repeat):          # alternated, so a change of load touches all alike
        runs["single"].append(single(a.seconds, a.encoding))
        for opp in opponents:
            runs[opp].append(vector(a.envs, opp, a.seconds, a.encoding))
    med = {k: tuple(statistics.median(r[i] for r in v) for i in range(2)) for k, v in runs.items()}
    base = med["single"][1]
    print(f"BackgammonEnv(opponent='random', encoding={a.encoding!r}), the policy a decision: "
          f"{med['single'][0]:,.0f} decisions and {base:,.0f} games per CPU s")
    for opp in opponents:
        steps, games = med[opp]
        print(f"VectorEnv({a.envs}, opponent={opp!r}), the policy a step for all games: "
              f"{steps:,.0f} decisions and {games:,.0f} games per CPU s = "
              f"{games / base:.1f}x the single env's games")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
