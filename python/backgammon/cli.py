"""The ``backgammon`` command.

    backgammon moves [POSITION_ID] DICE     legal plays of a roll, with Position IDs
    backgammon perft DEPTH [POSITION_ID] [--rolls 36]
    backgammon rollout [POSITION] [--games N] [--policy net|pubeval|random] [--seed S]
                       [--workers W] [--stop-error E] [--max-seconds T] [--json]
    backgammon analyse-roll POSITION [DICE] [--games N] [--top K] [--seed S] [--workers W]
                       [--ply P] [--policy P] [--stop-error E] [--max-seconds T] [--json]
                       [--variance-reduction] [--truncate N]
    backgammon analyse FILE [--ply N] [--no-cube] [--json | --html OUT]
                                            analyse a .mat, .sgf or JSON record
    backgammon duel A B [--games N] [--seed S] [--workers W]   (net, pubeval, random or a .npz)
    backgammon train --out DIR [--games N] [--seed S] [--threads T] [--max-minutes M] ...
    (POSITION: a Position ID, a GNUbgID or an XGID)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from typing import Any, Sequence

from backgammon.errors import BackgammonError, InvalidDiceError
from backgammon.perft import perft
from backgammon.position import Position

__all__ = ["main", "parse_dice_text"]

_DICE = re.compile(r"^\s*([1-6])\s*[-/, ]?\s*([1-6])\s*$")


def parse_dice_text(text: str) -> tuple[int, int]:
    """``"31"``, ``"3-1"``, ``"3 1"`` or ``"3,1"`` -> ``(3, 1)``.

        >>> parse_dice_text("6-5")
        (6, 5)
    """
    match = _DICE.match(text)
    if not match:
        raise InvalidDiceError(f"dice are two digits 1-6 such as 31 or 3-1, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def _position(text: str | None) -> Position:
    """The position of any spelling: Position ID, GNUbgID or XGID."""
    from backgammon.rollout import read_position

    return Position.initial() if text is None else read_position(text)[0]


def _cmd_moves(args: argparse.Namespace) -> int:
    if args.dice is None:  # one argument given: it is the dice
        args.position, args.dice = None, args.position
    pos = _position(args.position)
    dice = parse_dice_text(args.dice)
    plays = pos.legal_plays(dice)
    print(f"Position ID {pos.position_id()}, roll {dice[0]}-{dice[1]}: "
          f"{len(plays)} legal play{'s' if len(plays) != 1 else ''}")
    width = max(len(str(p)) for p in plays)
    for i, play in enumerate(plays, 1):
        text = str(play) or "(no legal move)"
        print(f"{i:4d}. {text:<{max(width, 15)}}  {play.result.position_id()}")
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    pos = _position(args.position)
    start = time.perf_counter()
    leaves = perft(pos, args.depth, rolls=args.rolls)
    seconds = time.perf_counter() - start
    rate = f", {leaves / seconds / 1e6:.1f} million leaves/s" if seconds > 0.01 else ""
    print(f"perft {args.depth} ({args.rolls} rolls) from {pos.position_id()}: "
          f"{leaves:,} leaves in {seconds:.3f} s{rate}")
    return 0


def _cmd_rollout(args: argparse.Namespace) -> int:
    from backgammon.rollout import rollout

    pos = _position(args.position)
    result = rollout(pos, games=args.games, policy=args.policy, seed=args.seed,
                     workers=args.workers, stratify=not args.no_stratify,
                     progress=not args.no_progress, stop_error=args.stop_error,
                     max_seconds=args.max_seconds)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result)
    return 0


def _cmd_analyse_roll(args: argparse.Namespace) -> int:
    from backgammon.candidates import rollout_plays
    from backgammon.rollout import read_position

    pos, carried = read_position(args.position)
    if args.dice is not None:
        dice = parse_dice_text(args.dice)
    elif carried is not None:
        dice = carried
    else:
        raise InvalidDiceError(f"{args.position!r} carries no dice: give them, e.g. 31")
    result = rollout_plays(pos, dice, top=args.top, games=args.games, ply=args.ply,
                           policy=args.policy, seed=args.seed, workers=args.workers,
                           progress=not args.no_progress, stop_error=args.stop_error,
                           max_seconds=args.max_seconds,
                           variance_reduction=args.variance_reduction, truncate=args.truncate)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result)
    return 0


_MAX_RECORD = 16 << 20  # bytes: a long match record is a few hundred KB


def _read_record(path: str) -> tuple[object, tuple[str, str]]:
    """The games of a .mat, .sgf or JSON record file, and the names."""
    from backgammon.errors import InvalidRecordError

    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_RECORD + 1)
    except OSError as exc:
        raise InvalidRecordError(f"cannot read {path!r}: {exc.strerror}") from None
    if len(data) > _MAX_RECORD:
        raise InvalidRecordError(f"{path!r} is larger than {_MAX_RECORD >> 20} MiB")
    text = data.decode("utf-8", errors="replace")
    lower = path.lower()
    if lower.endswith(".sgf") or text.lstrip("\ufeff \t\r\n").startswith("("):
        from backgammon.formats.sgf import read_sgf
        record = read_sgf(text)
    elif lower.endswith(".json") or text.lstrip().startswith("{"):
        from backgammon.formats.record import read_json
        record = read_json(text)
    else:
        from backgammon.formats.mat import read_mat
        record = read_mat(text)
    source = record.match if record.match is not None else record.games
    return source, tuple(record.names)  # type: ignore[return-value]


def _cmd_analyse(args: argparse.Namespace) -> int:
    import dataclasses

    from backgammon.analysis import analyse

    source, names = _read_record(args.file)
    result = dataclasses.replace(analyse(source, ply=args.ply, cube=not args.no_cube),
                                 names=names)
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(result.to_html())
        except OSError as exc:
            print(f"backgammon: error: cannot write {args.html!r}: {exc.strerror}",
                  file=sys.stderr)
            return 2
        print(f"wrote {args.html}")
    elif args.json:
        print(result.to_json(indent=2))
    else:
        print(result)
    return 0


def _duel_policy(text: str):
    if text in ("net", "pubeval", "random"):
        return text
    from backgammon.nn import Evaluator

    return Evaluator.load(text)


def _cmd_duel(args: argparse.Namespace) -> int:
    from backgammon.duel import duel

    result = duel(_duel_policy(args.a), _duel_policy(args.b), games=args.games,
                  seed=args.seed, workers=args.workers)
    print(result)
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from backgammon.train import train

    net = train(args.games, out=args.out, seed=args.seed, threads=args.threads,
                hidden=(args.hidden_contact, args.hidden_race), lr=args.lr,
                lr_final=args.lr_final, lr_halflife=args.lr_halflife,
                round_games=args.round_games, eval_every=args.eval_every,
                eval_pairs=args.eval_pairs, max_minutes=args.max_minutes,
                progress=not args.no_progress)
    if args.save:
        net.save(args.save)
    print(f"trained: {net!r}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="backgammon", description="A fast, exact backgammon engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    moves = sub.add_parser(
        "moves", help="list the legal plays of a roll",
        description="List the legal plays of a roll (default: the opening position).")
    moves.add_argument("position", metavar="POSITION_ID", nargs="?",
                       help="gnubg Position ID of the position (optional)")
    moves.add_argument("dice", metavar="DICE", nargs="?", help="the roll, e.g. 31 or 3-1")
    moves.set_defaults(run=_cmd_moves)
    pf = sub.add_parser(
        "perft", help="count the leaves of the play tree",
        description="Count the leaves of the play tree DEPTH plies deep.")
    pf.add_argument("depth", metavar="DEPTH", type=int)
    pf.add_argument("position", metavar="POSITION_ID", nargs="?")
    pf.add_argument("--rolls", type=int, choices=(21, 36), default=21,
                    help="21 distinct rolls (default) or 36 ordered rolls")
    pf.set_defaults(run=_cmd_perft)
    ro = sub.add_parser(
        "rollout", help="play a position out many times",
        description="Roll a position out (default: the opening position) and print the "
                    "chances of winning, gammons and backgammons, and the cubeless equity.")
    ro.add_argument("position", metavar="POSITION", nargs="?",
                    help="Position ID, GNUbgID or XGID; the player on roll rolls first")
    ro.add_argument("--games", type=int, default=1296 * 10,
                    help="number of games (default 12,960; multiples of 1,296 balance "
                         "the first two rolls)")
    ro.add_argument("--policy", choices=("net", "pubeval", "random"), default="net",
                    help="how both sides play: the bundled nets (default), pubeval or random")
    ro.add_argument("--seed", type=int, default=None,
                    help="fixes the games (default: a random seed, printed)")
    ro.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="native threads (default: one per CPU); results do not depend on it")
    ro.add_argument("--no-stratify", action="store_true",
                    help="plain random dice for the first two rolls too")
    _stopping_options(ro)
    ro.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    ro.add_argument("--json", action="store_true", help="print the result as JSON")
    ro.set_defaults(run=_cmd_rollout)
    an = sub.add_parser(
        "analyse", help="analyse every decision of a match",
        description="Analyse every checker play and cube decision of a .mat, .sgf or JSON "
                    "record with the neural evaluator: errors, error rates and luck.")
    an.add_argument("file", metavar="FILE", help="a .mat, .sgf or JSON match record")
    an.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                    help="evaluation depth (default 0)")
    an.add_argument("--no-cube", action="store_true", help="leave cube decisions out")
    out = an.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the analysis as JSON")
    out.add_argument("--html", metavar="OUT", help="write a self-contained HTML report to OUT")
    an.set_defaults(run=_cmd_analyse)
    ar = sub.add_parser(
        "analyse-roll", help="roll out the best plays of a roll",
        description="Pre-screen the plays of a roll by the nets and roll the best out with "
                    "the same dice for each, then print them ranked with their equities, "
                    "the difference to the best play and the errors.")
    ar.add_argument("position", metavar="POSITION",
                    help="Position ID, GNUbgID or XGID (the player on roll plays DICE)")
    ar.add_argument("dice", metavar="DICE", nargs="?",
                    help="the roll, e.g. 31 (default: the dice of a GNUbgID or XGID)")
    ar.add_argument("--games", type=int, default=1296,
                    help="games per play (default 1,296: each pair of first rolls once)")
    ar.add_argument("--top", type=int, default=5, help="plays to roll out (default 5)")
    ar.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                    help="the ply of the pre-screen (default 0)")
    ar.add_argument("--policy", choices=("net", "pubeval", "random"), default="net",
                    help="how both sides play the games (default: the bundled nets)")
    ar.add_argument("--seed", type=int, default=None,
                    help="fixes the games (default: a random seed, printed)")
    ar.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="native threads (default: one per CPU); results do not depend on it")
    _stopping_options(ar)
    ar.add_argument("--variance-reduction", action="store_true",
                    help="subtract each roll's luck as the nets see it (net policy; about 20 "
                         "times the work a game, far smaller errors)")
    ar.add_argument("--truncate", type=int, default=None, metavar="N",
                    help="score a game still going after N plies by the nets (net policy)")
    ar.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    ar.add_argument("--json", action="store_true", help="print the result as JSON")
    ar.set_defaults(run=_cmd_analyse_roll)
    du = sub.add_parser(
        "duel", help="play one policy against another over duplicate dice",
        description="Play policy A against policy B (net, pubeval, random, or a weights "
                    ".npz file), every dice sequence twice with the seats swapped, and print "
                    "A's points per game.")
    du.add_argument("a", metavar="A")
    du.add_argument("b", metavar="B")
    du.add_argument("--games", type=int, default=2000, help="games (default 2,000: 1,000 pairs)")
    du.add_argument("--seed", type=int, default=None, help="fixes the dice (default random)")
    du.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="native threads (default: one per CPU); results do not depend on it")
    du.set_defaults(run=_cmd_duel)
    tr = sub.add_parser(
        "train", help="train nets by TD self-play",
        description="Train the contact and race nets by TD(0) self-play in the core. With "
                    "--out the run keeps checkpoint.npz, best.npz and train.log there and "
                    "resumes from the checkpoint when started again.")
    tr.add_argument("--out", metavar="DIR", default=None, help="run directory (resumable)")
    tr.add_argument("--games", type=int, default=1_000_000, help="total games (default 1,000,000)")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--threads", type=int, default=None, help="default: 2 or one per CPU")
    tr.add_argument("--hidden-contact", type=int, default=128)
    tr.add_argument("--hidden-race", type=int, default=64)
    tr.add_argument("--lr", type=float, default=0.1)
    tr.add_argument("--lr-final", type=float, default=0.01)
    tr.add_argument("--lr-halflife", type=int, default=200_000)
    tr.add_argument("--round-games", type=int, default=200, help="games per thread between averages")
    tr.add_argument("--eval-every", type=int, default=10_000,
                    help="games between duels against pubeval (0: none)")
    tr.add_argument("--eval-pairs", type=int, default=500, help="duplicate pairs per duel")
    tr.add_argument("--max-minutes", type=float, default=None, help="stop after this wall time")
    tr.add_argument("--save", metavar="FILE", default=None, help="also write the final nets here")
    tr.add_argument("--no-progress", action="store_true")
    tr.set_defaults(run=_cmd_train)
    _add_engine_commands(sub)
    return parser


def _cmd_ubgi(args: argparse.Namespace) -> int:
    from backgammon.engine.ubgi import run
    return run()


def _cmd_external(args: argparse.Namespace) -> int:
    from backgammon.engine.external import serve
    return serve(args.port, args.host, args.ply)


def _add_engine_commands(sub: Any) -> None:
    ub = sub.add_parser("ubgi", help="serve the UBGI text protocol on stdin/stdout "
                        "(backgammon.engine.ubgi)")
    ub.set_defaults(run=_cmd_ubgi)
    ex = sub.add_parser("external", help="serve gnubg's external player protocol on a TCP "
                        "port (backgammon.engine.external)")
    ex.add_argument("--port", type=int, required=True, help="TCP port (0: any free port)")
    ex.add_argument("--host", default="127.0.0.1", help="address to listen on (default loopback)")
    ex.add_argument("--ply", type=int, default=0, choices=(0, 1, 2), help="search depth")
    ex.set_defaults(run=_cmd_external)


def _stopping_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stop-error", type=float, default=None, metavar="E",
                        help="stop once the equity error (for plays: every difference's "
                             "error) is below E, checked at fixed game counts")
    parser.add_argument("--max-seconds", type=float, default=None, metavar="T",
                        help="stop before a round that would end past T seconds")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``backgammon`` console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "moves" and args.position is None and args.dice is None:
        parser.error("moves needs the dice, e.g. `backgammon moves 31`")
    try:
        return args.run(args)
    except BackgammonError as exc:
        print(f"backgammon: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C stops perft and rollouts at once
        print("\nbackgammon: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `backgammon moves 66 | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
