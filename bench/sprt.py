"""How many pairs the gauntlet's SPRT needs, against a fixed number of pairs.

For elo1 - elo0 = 10, 20 and 50 (elo0 = 0, alpha = beta = 0.05), simulate
gauntlets whose true difference is elo0 and elo1: each pair is two games,
independent given the true Elo, each a win, draw or loss with a draw rate
``--draws`` (score ``L(elo)`` per game); the test (arena.stats.sprt, the
same code ``arena gauntlet --sprt`` runs) is checked every ``--batch``
pairs, as the gauntlet does. It prints the average pairs to a verdict and
how often each verdict came, beside the pairs a fixed-size one-sided test
needs for the same error rates: ``((z(1-alpha) + z(1-beta)) * sigma /
(s1 - s0))^2`` pairs, sigma the standard deviation of a pair's score at
the midpoint. Pure simulation, a minute or so:

    python bench/sprt.py [--runs 200] [--draws 0.1] [--batch 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from statistics import NormalDist

from arena.stats.sprt import Sprt, logistic_score


def pentanomial(elo: float, draws: float) -> list[float]:
    """Probabilities of pair scores 0, 1/2, 1, 3/2, 2 for two independent games."""
    score = logistic_score(elo)
    win, loss = score - draws / 2, 1 - score - draws / 2
    game = [loss, draws, win]
    pair = [0.0] * 5
    for i, p in enumerate(game):
        for j, q in enumerate(game):
            pair[i + j] += p * q
    return pair


def run_test(sprt: Sprt, probabilities: list[float], batch: int, limit: int, chooser: random.Random) -> tuple[str, int]:
    counts = [0] * 5
    while sum(counts) < limit:
        for outcome in chooser.choices(range(5), probabilities, k=batch):
            counts[outcome] += 1
        verdict = sprt.verdict(counts)
        if verdict:
            return verdict, sum(counts)
    return "inconclusive", sum(counts)


def fixed_pairs(sprt: Sprt, draws: float) -> int:
    middle = (sprt.elo0 + sprt.elo1) / 2
    probabilities = pentanomial(middle, draws)
    mean = sum(p * i / 4 for i, p in enumerate(probabilities))
    sigma = sum(p * (i / 4 - mean) ** 2 for i, p in enumerate(probabilities)) ** 0.5
    z = NormalDist().inv_cdf(1 - sprt.alpha) + NormalDist().inv_cdf(1 - sprt.beta)
    gap = logistic_score(sprt.elo1) - logistic_score(sprt.elo0)
    return round((z * sigma / gap) ** 2 + 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--draws", type=float, default=0.1)
    parser.add_argument("--batch", type=int, default=4, help="pairs between looks (2 x --jobs in a gauntlet)")
    parser.add_argument("--limit", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chooser = random.Random(args.seed)
    print(f"alpha = beta = 0.05, draw rate {args.draws}, {args.runs} runs each, a look every {args.batch} pairs")
    print(f"{'elo0,elo1':>10} {'true':>5} {'avg pairs':>10} {'median':>7} {'H1':>5} {'H0':>5} {'none':>5} "
          f"{'fixed pairs':>12} {'seconds':>8}")
    for gap in (10, 20, 50):
        sprt = Sprt(0, gap)
        fixed = fixed_pairs(sprt, args.draws)
        for true in (0, gap):
            started = time.monotonic()
            outcomes = [run_test(sprt, pentanomial(true, args.draws), args.batch, args.limit, chooser)
                        for _ in range(args.runs)]
            pairs = [n for _, n in outcomes]
            share = {v: sum(1 for o, _ in outcomes if o == v) / args.runs
                     for v in ("H1 accepted", "H0 accepted", "inconclusive")}
            print(f"{f'0,{gap}':>10} {true:>5} {statistics.fmean(pairs):>10.0f} {statistics.median(pairs):>7.0f} "
                  f"{share['H1 accepted']:>5.0%} {share['H0 accepted']:>5.0%} {share['inconclusive']:>5.0%} "
                  f"{fixed:>12} {time.monotonic() - started:>8.1f}")


if __name__ == "__main__":
    main()
