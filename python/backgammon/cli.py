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
    backgammon serve [--host 127.0.0.1] [--port 8080] [--database sqlite:///FILE | postgresql://...]
                     [--workers N] [--keep-days DAYS]
                                            games, the wildbg-compatible API and a page to play on
    backgammon benchmark [NETS ...] [--sets DIR] [--ply P] [--json]
                                            error rates on the strength benchmark's sets
    backgammon benchmark NEW --gate OLD [--pairs N] [--seed S]
                                            does generation NEW land? (exit 0: yes, 1: no)
    backgammon train --targets FILE|DIR --out DIR [--epochs N] [--init NETS.npz] ...
    (POSITION: a Position ID, a GNUbgID or an XGID)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from backgammon.errors import BackgammonError, InvalidDiceError
from backgammon.nn.evaluator import DEFAULT_KEEP, DEFAULT_MARGIN
from backgammon.perft import perft
from backgammon.position import Position, parse_dice_text  # parse_dice_text: kept here too

if TYPE_CHECKING:
    from backgammon.nn import Evaluator

__all__ = ["main", "parse_dice_text"]


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
    result = rollout(pos, games=args.games, policy=_policy(args.policy, args.prune),
                     seed=args.seed, workers=args.workers, stratify=not args.no_stratify,
                     progress=not args.no_progress, stop_error=args.stop_error,
                     max_seconds=args.max_seconds)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result)
    return 0


def _cmd_analyse_roll(args: argparse.Namespace) -> int:
    from backgammon.rollout.plays import rollout_plays
    from backgammon.rollout import read_position

    pos, carried = read_position(args.position)
    if args.dice is not None:
        dice = parse_dice_text(args.dice)
    elif carried is not None:
        dice = carried
    else:
        raise InvalidDiceError(f"{args.position!r} carries no dice: give them, e.g. 31")
    result = rollout_plays(pos, dice, top=args.top, games=args.games, ply=args.ply,
                           policy=_policy(args.policy, args.prune), seed=args.seed,
                           workers=args.workers, progress=not args.no_progress,
                           stop_error=args.stop_error, max_seconds=args.max_seconds,
                           variance_reduction=args.variance_reduction, truncate=args.truncate,
                           include=args.include)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result)
    return 0


def _cmd_cube(args: argparse.Namespace) -> int:
    from backgammon.cube import cube_decision
    from backgammon.rollout.cube import rollout_cube
    from backgammon.rollout.equity import read_game_or_position

    where = read_game_or_position(args.position)  # an ID with a cube and score: its game
    if args.rollout:
        decision = rollout_cube(where, games=args.rollout, seed=args.seed,
                                workers=args.workers)
    else:
        decision = cube_decision(where, ply=args.ply)
    print(decision)
    return 0


def _unwritable(path: str) -> str:
    """Why ``path`` cannot be written ('' if it can): opened for appending, so an
    existing file is left as it is, and a file made by the check is removed."""
    if os.path.isdir(path):
        return "it is a folder"
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    if not existed:
        with contextlib.suppress(OSError):
            os.remove(path)
    return ""


def _cmd_analyse(args: argparse.Namespace) -> int:
    import dataclasses

    from backgammon.analysis import analyse
    from backgammon.formats.files import read_record

    if args.html:   # before the analysis, which may take minutes: a bad path fails now
        why = _unwritable(args.html)
        if why:
            print(f"backgammon: error: cannot write {args.html!r}: {why}", file=sys.stderr)
            return 2
    record = read_record(args.file)
    source = record.match if record.match is not None else record.games
    names = record.names
    evaluator = None
    if args.nets != "net" or args.prune is not None:
        from backgammon.nn import Evaluator

        chosen = _policy(args.nets, args.prune)
        if chosen == "net":
            chosen = Evaluator.default()
        if not isinstance(chosen, Evaluator):
            raise BackgammonError(f"--nets: the analysis needs nets, not {args.nets}")
        evaluator = chosen
    result = dataclasses.replace(analyse(source, ply=args.ply, cube=not args.no_cube,
                                         evaluator=evaluator, workers=args.workers),
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


_PRUNE_DEFAULT = ("K = 0: no screen; KmM: of those only the plays within M (equity) of the "
                  f"screen's best (default margin {DEFAULT_MARGIN}; m0: none); default: the nets' "
                  f"own (the bundled nets come screened, keeping {DEFAULT_KEEP} within "
                  f"{DEFAULT_MARGIN}; a nets file does not)")
_PRUNE_HELP = ("screen the nets' move choices with the bundled pruning nets, the nets scoring "
               "only the screen's K best plays (about three times the games a second; "
               "docs/nn.md, \"Pruning\"); " + _PRUNE_DEFAULT)

Prune = tuple[int, float | None]
"""A screen named on the command line: how many plays it keeps, and its margin
(None: the default one)."""


def _prune(text: str) -> Prune:
    """``--prune K`` or ``--prune KmM``: the screen's keep and margin (argparse type)."""
    m = re.fullmatch(r"(\d{1,3})(?:m(\d{1,2}(?:\.\d{1,6})?|\.\d{1,6}))?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(
            f"expected K or KmM (plays kept, margin in equity, e.g. 8 or 8m0.12), got {text!r}")
    return int(m.group(1)), float(m.group(2)) if m.group(2) is not None else None


def _screened(ev: Evaluator, prune: Prune) -> Evaluator:
    """``ev`` with the screen ``prune`` (:meth:`Evaluator.with_pruning`)."""
    keep, margin = prune
    return ev.with_pruning(keep=keep, margin=DEFAULT_MARGIN if margin is None else margin)


def _policy(text: str, prune: Prune | None = None) -> str | Evaluator:
    """A policy named on the command line: net, fast, strong, pubeval, random or a nets file;
    a suffix ``+pruneK`` or ``+pruneKmM`` (or ``prune=``, ``--prune``) screens the nets'
    move choices, keeping K plays within M of the screen's best
    (:meth:`Evaluator.with_pruning`; K = 0: no screen), as in the policy names of
    results.  Without one the nets keep their own screen (the bundled nets' default)."""
    m = re.fullmatch(r"(.+)\+prune(\S+)", text)
    if m:
        try:
            text, prune = m.group(1), _prune(m.group(2))
        except argparse.ArgumentTypeError as exc:
            raise BackgammonError(f"{text!r}: {exc}") from None
    if text in ("pubeval", "random"):
        if prune is not None and prune[0]:
            raise BackgammonError(f"pruning screens the nets' move choices, not {text}'s")
        return text
    if text == "net" and prune is None:
        return text
    from backgammon.nn import Evaluator

    ev = Evaluator.named(text)
    return _screened(ev, prune) if prune is not None else ev


def _cmd_duel(args: argparse.Namespace) -> int:
    from backgammon.analysis.duel import duel

    result = duel(_policy(args.a), _policy(args.b), games=args.games,
                  seed=args.seed, workers=args.workers)
    print(result)
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from backgammon.training.train import train

    hidden = (args.hidden_contact, args.hidden_race) + (
        (args.hidden_crashed,) if args.hidden_crashed else ())
    middle = (args.middle_contact, args.middle_race) + (
        (args.middle_crashed,) if args.hidden_crashed else ())
    if args.middle_crashed and not args.hidden_crashed:
        raise BackgammonError("--middle-crashed needs a crashed net: give --hidden-crashed")
    if args.targets is not None:  # supervised (backgammon.training.supervised)
        if args.games is not None:
            raise BackgammonError("give --games (self-play) or --targets (supervised), not both")
        targets = args.targets[0] if len(args.targets) == 1 else args.targets
        start = args.init
        if args.grow:
            from backgammon.nn import Evaluator
            if start is None:
                raise BackgammonError("--grow grows the nets of --init: give --init NETS")
            if any(middle):
                raise BackgammonError("--grow keeps the layers of --init; --middle-* sizes "
                                      "are for fresh nets")
            start = Evaluator.load(start).grown(hidden, args.encoding, seed=args.seed)
        net = train(targets=targets, out=args.out, seed=args.seed, threads=args.threads,
                    hidden=hidden, encoding=args.encoding, lr=args.lr,
                    lr_final=args.lr_final, epochs=args.epochs, batch=args.batch,
                    optimizer=args.optimizer, validation=args.validation,
                    start=start, max_minutes=args.max_minutes,
                    progress=not args.no_progress, frozen=args.frozen or (),
                    middle=middle if any(middle) else None, crelu=args.crelu)
    else:
        if args.crelu:
            raise BackgammonError("--crelu is a setting of supervised training (--targets)")
        if args.frozen:
            raise BackgammonError("--frozen is a setting of supervised training (--targets)")
        if any(middle):
            raise BackgammonError("--middle-* is a setting of supervised training (--targets)")
        start = args.init
        if start is None and (args.encoding != 1 or args.hidden_crashed):
            from backgammon.nn import Evaluator
            start = Evaluator.random(hidden, args.seed, args.encoding)
        net = train(args.games if args.games is not None else 1_000_000, out=args.out,
                    seed=args.seed, threads=args.threads,
                    hidden=hidden, lr=args.lr,
                    lr_final=args.lr_final, lr_halflife=args.lr_halflife,
                    round_games=args.round_games, eval_every=args.eval_every,
                    eval_pairs=args.eval_pairs, max_minutes=args.max_minutes,
                    start=start, progress=not args.no_progress)
    if args.save:
        net.save(args.save)
    print(f"trained: {net!r}")
    return 0


def _cmd_targets(args: argparse.Namespace) -> int:
    from backgammon.training import targets
    from backgammon.nn import Evaluator

    ev = Evaluator.named(args.nets or "net")
    if args.prune is not None:
        ev = _screened(ev, args.prune)

    def log(text: str) -> None:
        print(time.strftime("%H:%M:%S"), text, flush=True)

    if args.filtered and args.ply != 2:
        raise BackgammonError("--filtered needs --ply 2 (it filters the replies of a 2-ply search)")
    if args.relabel is None and args.chunks is None:
        raise BackgammonError("targets needs --chunks FIRST END (or --relabel DIR)")
    if args.variance_reduction and args.ply is not None:
        raise BackgammonError("--variance-reduction belongs to rollouts, not to --ply targets")
    in_flight = args.in_flight if args.in_flight is not None else (
        2 * args.processes if args.processes else targets.IN_FLIGHT)
    with _targets_executor(args.processes, args.scheduler) as executor:
        if args.relabel is not None:
            rolled = {} if args.ply is not None else dict(
                games=args.games, truncate=args.truncate or None, seed=args.seed,
                variance_reduction=args.variance_reduction)
            targets.relabel_targets(args.relabel, args.out, ply=args.ply, filtered=args.filtered,
                                    evaluator=ev, executor=executor, in_flight=in_flight,
                                    log=log, **rolled)
            return 0
        first, end = args.chunks
        targets.make_targets(args.out, range(first, end), seed=args.seed,
                             chunk_positions=args.positions, games=args.games,
                             truncate=args.truncate or None, ply=args.ply,
                             filtered=args.filtered, explore=args.explore,
                             varied=args.varied, keep=args.keep, siblings=args.siblings,
                             classes=None if args.classes is None else set(args.classes),
                             evaluator=ev, workers=args.workers, executor=executor,
                             in_flight=in_flight, log=log,
                             variance_reduction=args.variance_reduction)
    return 0


@contextlib.contextmanager
def _targets_executor(processes: int | None, scheduler: str | None) -> Iterator[Any]:
    """The executor of ``backgammon targets``: none, a local process pool, or a
    Dask cluster's."""
    if processes is not None and scheduler is not None:
        raise BackgammonError("give --processes or --scheduler, not both")
    if scheduler is not None:
        import importlib
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise BackgammonError("--scheduler needs Dask: pip install 'backgammon[distributed]'") \
                from None
        with distributed.Client(scheduler) as client:
            yield client.get_executor()
        return
    if processes is None:
        yield None
        return
    if not 1 <= processes <= 1024:
        raise BackgammonError(f"--processes must be 1 to 1024, got {processes}")
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(processes) as pool:
        yield pool


def _cmd_serve(args: argparse.Namespace) -> int:
    from backgammon.server import serve

    if args.workers < 1:
        print("backgammon: error: --workers is at least 1", file=sys.stderr)
        return 2
    from backgammon.server.app import keep_seconds
    try:
        keep_seconds(args.keep_days)
    except ValueError as exc:
        print(f"backgammon: error: --keep-days: {exc}", file=sys.stderr)
        return 2
    serve(args.host, args.port, args.database, args.workers, args.keep_days)  # prints "serving on"
    return 0


def _cmd_benchmark(args: argparse.Namespace) -> int:
    from backgammon.training import benchmark
    from backgammon.errors import InvalidBenchmarkError
    from backgammon.nn import Evaluator

    sets = benchmark.load_sets(args.sets)
    if args.gate is not None:
        if len(args.nets) != 1:
            raise InvalidBenchmarkError("--gate OLD compares one NEW nets file with "
                                                  f"OLD, got {len(args.nets)} NETS")
        result = benchmark.gate(args.nets[0], args.gate, sets, pairs=args.pairs,
                                seed=args.seed, workers=args.workers)
        print(f"gate: {args.nets[0]} (new) against {args.gate} (old)")
        print(result)
        return 0 if result.lands else 1
    choosers: list[tuple[str, object]] = [(path, Evaluator.named(path)) for path in args.nets]
    choosers.append(("bundled nets", Evaluator.default()))
    if args.ply == 0:
        choosers.append(("pubeval", "pubeval"))
    report = {}
    for label, choose in choosers:
        rates = benchmark.error_rate(choose, sets, ply=args.ply)
        rates["all"] = benchmark.combined(rates)
        report[label] = rates
    if args.json:
        print(json.dumps({label: {k: {"decisions": r.decisions, "error": r.error,
                                      "stderr": r.stderr, "best_share": r.best_share}
                                  for k, r in rates.items()}
                          for label, rates in report.items()}, indent=2))
        return 0
    names = list(next(iter(report.values())))
    print(f"Error rates at {args.ply}-ply: mean equity lost a decision against the "
          "rolled-out reference, x 1000 (± standard error; % of decisions with the "
          "reference best play)")
    width = max(len(label) for label in report)
    print(f"{'':<{width}}" + "".join(f"  {f'{k} ({report[choosers[0][0]][k].decisions:,})':>22}"
                                      for k in names))
    for label, rates in report.items():
        print(f"{label:<{width}}" + "".join(
            f"  {f'{r.error:.2f} ± {r.stderr:.2f} ({100 * r.best_share:.0f}%)':>22}"
            for r in rates.values()))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="backgammon", description="A fast, exact backgammon engine.")
    from backgammon import __version__

    parser.add_argument("--version", action="version", version=f"backgammon {__version__}")
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
    ro.add_argument("--policy", choices=("net", "fast", "strong", "pubeval", "random"),
                    default="net",
                    help="how both sides play: the bundled nets (default), the bundled fast "
                         "nets (about three times the games a second), the bundled strong "
                         "nets (half the games a second), pubeval or random")
    ro.add_argument("--prune", type=_prune, default=None, metavar="K",
                    help=_PRUNE_HELP)
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
    cu = sub.add_parser(
        "cube", help="double, take or pass: the cube decision of a position",
        description="The cube decision of the player on roll, from the nets' chances at a "
                    "ply (Janowski's model) or by rolling out no double and double/take "
                    "with the same dice.  A GNUbgID or XGID gives the cube and the score.")
    cu.add_argument("position", metavar="POSITION",
                    help="Position ID (money, cube centred), GNUbgID or XGID")
    cu.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                    help="evaluation depth without --rollout (default 0)")
    cu.add_argument("--rollout", type=int, default=0, metavar="N",
                    help="roll out N games per branch (rounded up to a multiple of 1,296)")
    cu.add_argument("--seed", type=int, default=None, help="fixes the rollout's games")
    cu.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="native threads of the rollout (default: one per CPU)")
    cu.set_defaults(run=_cmd_cube)
    an = sub.add_parser(
        "analyse", help="analyse every decision of a match",
        description="Analyse every checker play and cube decision of a .mat, .sgf or JSON "
                    "record with the neural evaluator: errors, error rates and luck.")
    an.add_argument("file", metavar="FILE", help="a .mat, .sgf or JSON match record")
    an.add_argument("--ply", type=int, choices=(0, 1, 2), default=None,
                    help="evaluation depth (default 2, with gnubg-style move filters: nearest gnubg's own analysis)")
    an.add_argument("--no-cube", action="store_true", help="leave cube decisions out")
    an.add_argument("--nets", default="net", metavar="NETS",
                    help="net (the bundled nets, default), fast, strong (the bundled "
                         "strong nets: an ensemble, closer to gnubg's judgement, half the "
                         "speed) or a nets file")
    an.add_argument("--prune", type=_prune, default=None, metavar="K",
                    help="screen the nets' move choices inside the evaluations with the "
                         "bundled pruning nets, keeping K (about twice as fast, the same "
                         "error rates within noise; docs/nn.md, \"Pruning\"); "
                         + _PRUNE_DEFAULT)
    an.add_argument("--workers", type=int, default=None,
                    help="threads analysing games at once (default: every core)")
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
    ar.add_argument("--include", action="append", default=None, metavar="PLAY",
                    help="a play to roll out too, whatever its rank (e.g. the play made; "
                         "repeatable)")
    ar.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                    help="the ply of the pre-screen (default 0)")
    ar.add_argument("--policy", choices=("net", "fast", "strong", "pubeval", "random"),
                    default="net",
                    help="how both sides play the games (default: the bundled nets; fast: "
                         "the bundled fast nets; strong: the bundled strong nets)")
    ar.add_argument("--prune", type=_prune, default=None, metavar="K",
                    help=_PRUNE_HELP)
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
        description="Play policy A against policy B (net, fast, pubeval, random, or a "
                    "weights .npz file; net+prune5 screens the nets' move choices keeping 5, "
                    "net+prune0 plays the bundled nets unscreened), every "
                    "dice sequence twice with the seats swapped, and print A's points per game.")
    du.add_argument("a", metavar="A")
    du.add_argument("b", metavar="B")
    du.add_argument("--games", type=int, default=2000, help="games (default 2,000: 1,000 pairs)")
    du.add_argument("--seed", type=int, default=None, help="fixes the dice (default random)")
    du.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="native threads (default: one per CPU); results do not depend on it")
    du.set_defaults(run=_cmd_duel)
    tr = sub.add_parser(
        "train", help="train nets by TD self-play, or supervised on --targets",
        description="Train the contact and race nets in the core: by TD(0) self-play, or with "
                    "--targets FILE|DIR supervised on rollout targets (docs/nn.md). With "
                    "--out the run keeps checkpoint.npz, best.npz and train.log there and "
                    "resumes from the checkpoint when started again.")
    tr.add_argument("--targets", metavar="FILE|DIR", nargs="+", default=None,
                    help="supervised: targets .npz files or directories of them (several: "
                         "read in the order given)")
    tr.add_argument("--init", metavar="NETS", default=None,
                    help="start a fresh run from these nets (default: random)")
    tr.add_argument("--grow", action="store_true",
                    help="supervised: grow the --init nets to --encoding and the --hidden-* "
                         "sizes first (Evaluator.grown: they answer as before, the new inputs "
                         "and units start silent)")
    tr.add_argument("--epochs", type=int, default=20, help="supervised: epochs (default 20)")
    tr.add_argument("--batch", type=int, default=128, help="supervised: minibatch (default 128)")
    tr.add_argument("--optimizer", choices=("adam", "momentum"), default="adam",
                    help="supervised: adam (default) or SGD with momentum")
    tr.add_argument("--validation", type=float, default=0.05,
                    help="supervised: held-out fraction (default 0.05)")
    tr.add_argument("--frozen", nargs="+", choices=("contact", "race", "crashed"), default=None,
                    metavar="NET",
                    help="supervised: nets that keep the weights of --init (contact, race, "
                         "crashed), e.g. a new contact net beside the old race and crashed nets")
    tr.add_argument("--out", metavar="DIR", default=None, help="run directory (resumable)")
    tr.add_argument("--games", type=int, default=None, help="self-play: total games (default 1,000,000)")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--threads", type=int, default=None, help="default: 2 or one per CPU")
    tr.add_argument("--hidden-contact", type=int, default=128)
    tr.add_argument("--hidden-race", type=int, default=64)
    tr.add_argument("--hidden-crashed", type=int, default=0,
                    help="hidden units of a third net for crashed positions (0: none, the default)")
    for name in ("contact", "race", "crashed"):
        tr.add_argument(f"--middle-{name}", type=int, default=0, metavar="M",
                        help=f"supervised: a second hidden layer of M units in a fresh {name} "
                             "net (0: none, the default)")
    tr.add_argument("--encoding", type=int, choices=(1, 2, 3, 4, 5, 6), default=1,
                    help="input encoding of fresh nets (docs/nn.md; default 1)")
    tr.add_argument("--crelu", action="store_true",
                    help="supervised: the clipped ReLU in the first layer of fresh nets with a "
                         "middle layer (the integer kernels of encodings 5 and 6 run it without "
                         "a division)")
    tr.add_argument("--lr", type=float, default=None,
                    help="start learning rate (self-play 0.1; adam 0.003, momentum 0.1)")
    tr.add_argument("--lr-final", type=float, default=None,
                    help="final learning rate (self-play 0.01; supervised lr / 30)")
    tr.add_argument("--lr-halflife", type=int, default=200_000)
    tr.add_argument("--round-games", type=int, default=200, help="games per thread between averages")
    tr.add_argument("--eval-every", type=int, default=10_000,
                    help="games between duels against pubeval (0: none)")
    tr.add_argument("--eval-pairs", type=int, default=500, help="duplicate pairs per duel")
    tr.add_argument("--max-minutes", type=float, default=None, help="stop after this wall time")
    tr.add_argument("--save", metavar="FILE", default=None, help="also write the final nets here")
    tr.add_argument("--no-progress", action="store_true")
    tr.set_defaults(run=_cmd_train)
    tg = sub.add_parser(
        "targets", help="make training targets: self-play positions and their rollouts",
        description="Sample positions from varied self-play of the nets and roll each out, "
                    "writing chunk files OUT/chunk-NNNNNN.npz (docs/nn.md). Chunks already "
                    "there are kept, so the same command resumes an interrupted run.")
    tg.add_argument("--out", metavar="DIR", required=True)
    tg.add_argument("--seed", type=int, default=0, help="the data set's seed (chunk c uses (seed, c))")
    tg.add_argument("--chunks", type=int, nargs=2, metavar=("FIRST", "END"), default=None,
                    help="make chunks FIRST .. END-1")
    tg.add_argument("--relabel", metavar="DIR", default=None,
                    help="instead: the positions of DIR's chunks with new targets by --nets, "
                         "at --ply or else rolled out (the next generation's targets)")
    tg.add_argument("--positions", type=int, default=500, help="positions per chunk (default 500)")
    tg.add_argument("--games", type=int, default=216,
                    help="games per position, a multiple of 36 (default 216)")
    tg.add_argument("--truncate", type=int, default=9,
                    help="score games still going after this many plies by the nets (0: play out)")
    tg.add_argument("--variance-reduction", action="store_true",
                    help="rollouts subtract each roll's luck as the nets see it (in races "
                         "36 such games err about twenty times less than 324 plain ones)")
    tg.add_argument("--ply", type=int, choices=(0, 1, 2), default=None,
                    help="targets from the nets' own evaluation at this depth instead of "
                         "rollouts (0: the nets' evaluation itself, to teach a smaller net)")
    tg.add_argument("--filtered", action="store_true",
                    help="with --ply 2: choose the replies inside each evaluation at 0 ply, as "
                         "gnubg does (about 7 times faster)")
    tg.add_argument("--siblings", type=int, default=0, metavar="K",
                    help="after each kept position also keep the positions after the nets' K "
                         "best plays of its roll (the alternatives a net chooses among)")
    tg.add_argument("--explore", type=float, default=0.1,
                    help="chance of a random play among the nets' four best (default 0.1)")
    tg.add_argument("--varied", type=float, default=0.3,
                    help="share of games opened by pubeval or random plays (default 0.3)")
    tg.add_argument("--keep", type=float, default=0.2,
                    help="chance that a position of a game is kept (default 0.2)")
    tg.add_argument("--classes", nargs="+",
                    choices=("contact", "crashed", "race", "backgame", "blitz", "trailing"),
                    default=None, help="keep only positions of these classes (default: all; "
                    "backgame: a side holds two points in its opponent's home board and "
                    "trails by 50 pips or more; blitz: a side has two checkers on the bar, "
                    "or one against a home board of four points; trailing: contact, the "
                    "player on roll 20 pips or more behind)")
    tg.add_argument("--nets", metavar="FILE", default=None,
                    help="nets playing and labelling: a weights .npz file, or net, fast or "
                         "strong for the bundled ones (default: net)")
    tg.add_argument("--prune", type=_prune, default=None, metavar="K",
                    help="screen the nets' move choices (self-play and the replies inside "
                         "1- and 2-ply targets) with the bundled pruning nets, keeping K; "
                         "recorded in each chunk's meta; " + _PRUNE_DEFAULT)
    tg.add_argument("--workers", type=int, default=1, help="native threads (default 1)")
    tg.add_argument("--processes", type=int, default=None, metavar="N",
                    help="make (or relabel) N chunks at once in N processes")
    tg.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="make the chunks on a Dask cluster (the distributed extra): "
                         "its scheduler's address, e.g. tcp://host:8786")
    tg.add_argument("--in-flight", type=int, default=None, metavar="N",
                    help="chunks handed to the processes or the cluster at a time "
                         "(default: twice --processes, or 16 on a cluster)")
    tg.set_defaults(run=_cmd_targets)
    sv = sub.add_parser(
        "serve", help="serve games, the engine API and a page to play on",
        description="Serve games over HTTP and WebSocket, the wildbg-compatible engine API "
                    "(/move, /eval) and a page to play on (needs the server extra: "
                    "pip install 'backgammon[server]'). Docs at /docs.")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8080)
    sv.add_argument("--database", default=None, metavar="URL",
                    help="sqlite:///FILE or postgresql://... (default: SQLite in the user's "
                         "data directory)")
    sv.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    sv.add_argument("--keep-days", type=float, default=None, metavar="DAYS",
                    help="delete games with no action for DAYS days, and jobs as old, at start "
                         "and every hour (default: keep everything)")
    sv.set_defaults(run=_cmd_serve)
    be = sub.add_parser(
        "benchmark", help="error rates of nets on the strength benchmark",
        description="Print, for each position set (contact, crashed, race), the error rate "
                    "of each NETS file, of the bundled nets and of pubeval: the mean equity "
                    "lost a decision against rolled-out reference equities, x 1000. With "
                    "--gate OLD, say whether NEW lands: its error rate drops and it wins a "
                    "duplicate-dice duel against OLD.")
    be.add_argument("nets", metavar="NETS", nargs="*",
                    help="weights .npz files, or net, fast or strong (the bundled ones)")
    be.add_argument("--sets", metavar="DIR", default=None,
                    help="a directory of position sets or one set file (default: the "
                         "bundled sets)")
    be.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                    help="the depth at which the nets choose (default 0)")
    be.add_argument("--json", action="store_true", help="print the figures as JSON")
    be.add_argument("--gate", metavar="OLD", default=None,
                    help="the previous nets (a .npz, or net, fast or strong): does NEW land?")
    be.add_argument("--pairs", type=int, default=5000,
                    help="duplicate pairs of the gate's duel (default 5,000)")
    be.add_argument("--seed", type=int, default=15, help="dice of the gate's duel (default 15)")
    be.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="native threads of the duel (default: one per CPU)")
    be.set_defaults(run=_cmd_benchmark)
    _add_engine_commands(sub)
    return parser


def _cmd_ubgi(args: argparse.Namespace) -> int:
    from backgammon.protocols.ubgi import run
    return run()


def _cmd_external(args: argparse.Namespace) -> int:
    from backgammon.protocols.external import serve
    return serve(args.port, args.host, args.ply)


def _add_engine_commands(sub: Any) -> None:
    ub = sub.add_parser("ubgi", help="serve the UBGI text protocol on stdin/stdout "
                        "(backgammon.protocols.ubgi)")
    ub.set_defaults(run=_cmd_ubgi)
    ex = sub.add_parser("external", help="serve gnubg's external player protocol on a TCP "
                        "port (backgammon.protocols.external)")
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


_ASCII_INT = re.compile(r"-?[0-9]+")


def _ascii_int(text: str) -> int:
    """An ``int`` argument: ASCII digits only (``int`` also reads ``"٣"`` and ``"1_0"``)."""
    if not _ASCII_INT.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer (ASCII digits)")
    return int(text)


def _ascii_float(text: str) -> float:
    """A ``float`` argument: ASCII only (``float`` also reads ``"٣.٥"`` and ``"1_0"``)."""
    if not text.isascii() or "_" in text or text != text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (ASCII digits)")
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def _ascii_numbers(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Every ``type=int`` / ``type=float`` option of ``parser`` and its subcommands read
    as ASCII numbers (one place, so a new option gets it too)."""
    for action in parser._actions:
        if action.type is int:
            action.type = _ascii_int
        elif action.type is float:
            action.type = _ascii_float
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _ascii_numbers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``backgammon`` console script."""
    parser = _ascii_numbers(_parser())
    args = parser.parse_args(argv)
    if args.command == "moves" and args.position is None and args.dice is None:
        parser.error("moves needs the dice, e.g. `backgammon moves 31`")
    try:
        code: int = args.run(args)
        return code
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
