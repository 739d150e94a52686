"""Writes tests/data/openspiel_states.jsonl.gz: states of random OpenSpiel games.

Each line: the state's action ``history``, the ``player`` on turn, its
``observation`` tensor (as ``[index, value]`` pairs of the nonzero entries)
and its ``legal`` actions, as pyspiel (open-spiel) gives them.  The test
tests/test_env_openspiel.py replays each history with this library and
compares.  Run: python tools/make_openspiel_vectors.py [--games 40 --seed 1]
"""

import argparse
import gzip
import json
import random

import pyspiel


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--every", type=int, default=4, help="keep one decision in N")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="tests/data/openspiel_states.jsonl.gz")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    game = pyspiel.load_game("backgammon")
    rows = []
    for _ in range(a.games):
        s = game.new_initial_state()
        k = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([o for o, _ in s.chance_outcomes()]))
                continue
            p = s.current_player()
            if k % a.every == 0:
                obs = s.observation_tensor(p)
                rows.append({"history": s.history(), "player": p,
                             "observation": [[i, v] for i, v in enumerate(obs) if v],
                             "legal": s.legal_actions()})
            k += 1
            s.apply_action(rng.choice(s.legal_actions()))
    with gzip.open(a.out, "wt") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    print(f"{len(rows)} states from {a.games} games -> {a.out}")


if __name__ == "__main__":
    main()
