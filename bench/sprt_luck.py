"""Error rates and pairs to a verdict of the gauntlet's luck-adjusted test,
against the pentanomial test on the same games.

Simulated gauntlets (``arena gauntlet --sprt ELO0,ELO1 [--luck-adjusted]``:
the same code, arena.stats.sprt and arena.stats.adjusted_sprt, looked at
every ``--batch`` pairs as the gauntlet does), a true difference of elo0,
the midpoint and elo1. Each game of a pair is drawn independently:

* the dice give the candidate a chance of winning ``p``, drawn from a Beta
  distribution with mean ``s = L(elo)`` (the score the test maps elo to) and
  concentration ``k``: ``Beta(s k, (1 - s) k)``;
* it wins (1 point) with probability ``p``, else loses (0): the raw result;
* its luck is what the dice gave beyond the mean, ``p - s``, and its
  adjusted result is the raw one less that (mean ``s``, as arena's).

The adjusted result's variance is then ``k / (k + 1)`` of the raw one's, so
``k`` is set from the ratio ``bench/luck.py`` measured on real games between
the house bots (docs/explanation/luck.md): ``--ratios 0.04,0.39,0.94``
(Slyyde, Detour, Roundabout; search against greedy, two seats). Adjusted
scores are a mixture, not normal: most near the mean, some a whole point
off (a game lost from a winning position), which is what the normal test
has to survive. A pair's raw outcome (its two results) goes to the
pentanomial test, its mean adjusted result to the adjusted test.

Printed per ratio and test: how often each verdict came at each true
difference (at elo0, "H1" is the false positive rate, alpha; at elo1, "H0"
the false negative rate, beta), with the Monte Carlo standard error of a
rate of 0.05, and the average pairs to a verdict. Pure simulation:

    python bench/sprt_luck.py [--runs 1000] [--gaps 20,50] [--ratios 0.04,0.39,0.94] [--batch 4]
        [--min-pairs 10] [--adjusted-only]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass, field

from arena.stats import adjusted_sprt
from arena.stats.adjusted_sprt import MIN_PAIRS, Moments
from arena.stats.sprt import Sprt, logistic_score

VERDICTS = ("H1 accepted", "H0 accepted", "inconclusive")


def concentration(ratio: float) -> float:
    """The Beta concentration ``k`` whose adjusted variance is ``ratio`` of the raw."""
    if not 0 < ratio < 1:
        raise ValueError(f"a variance ratio lies strictly between 0 and 1, got {ratio!r}")
    return ratio / (1 - ratio)


def game(score: float, k: float, chooser: random.Random) -> tuple[float, float]:
    """One simulated game: the candidate's raw and adjusted results (module docstring)."""
    p = chooser.betavariate(score * k, (1 - score) * k)
    raw = 1.0 if chooser.random() < p else 0.0
    return raw, raw - (p - score)


@dataclass
class Run:
    """One simulated gauntlet, both tests on the same pairs until both stop."""

    counts: list[int] = field(default_factory=lambda: [0] * 5)
    moments: Moments = Moments()
    verdicts: dict[str, tuple[str, int]] = field(default_factory=dict)


def simulate(sprt: Sprt, elo: float, ratio: float, batch: int, limit: int, chooser: random.Random,
             pentanomial: bool = True, min_pairs: int = MIN_PAIRS) -> dict[str, tuple[str, int]]:
    """The verdict and pairs of each test (``adjusted``, and ``pentanomial``
    unless left out) in one simulated gauntlet at a true difference of ``elo``."""
    score, k = logistic_score(elo), concentration(ratio)
    run = Run()
    tests = ("adjusted", "pentanomial") if pentanomial else ("adjusted",)
    while len(run.verdicts) < len(tests) and run.moments.pairs < limit:
        for _ in range(batch):
            (raw_a, adjusted_a), (raw_b, adjusted_b) = game(score, k, chooser), game(score, k, chooser)
            run.counts[round(2 * (raw_a + raw_b))] += 1
            run.moments = run.moments.add((adjusted_a + adjusted_b) / 2)
        if "adjusted" not in run.verdicts:
            found = adjusted_sprt.verdict(sprt, run.moments, min_pairs)
            if found:
                run.verdicts["adjusted"] = found, run.moments.pairs
        if pentanomial and "pentanomial" not in run.verdicts:
            found = sprt.verdict(run.counts)
            if found:
                run.verdicts["pentanomial"] = found, run.moments.pairs
    for test in tests:
        run.verdicts.setdefault(test, ("inconclusive", run.moments.pairs))
    return run.verdicts


def rates(outcomes: list[tuple[str, int]]) -> tuple[dict[str, float], float]:
    """The share of each verdict and the average pairs."""
    share = {verdict: sum(1 for found, _ in outcomes if found == verdict) / len(outcomes) for verdict in VERDICTS}
    return share, statistics.fmean(pairs for _, pairs in outcomes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--gaps", default="20,50", help="elo1 - elo0 (elo0 = 0), comma-separated")
    parser.add_argument("--ratios", default="0.04,0.39,0.94",
                        help="adjusted / raw variance of a game, comma-separated (module docstring)")
    parser.add_argument("--batch", type=int, default=4, help="pairs between looks (2 x --jobs in a gauntlet)")
    parser.add_argument("--limit", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-pairs", type=int, default=MIN_PAIRS,
                        help="pairs before the adjusted test may decide (arena's: %(default)s)")
    parser.add_argument("--adjusted-only", action="store_true", help="leave the (slower) pentanomial test out")
    args = parser.parse_args()
    chooser = random.Random(args.seed)
    error = math.sqrt(0.05 * 0.95 / args.runs)
    print(f"alpha = beta = 0.05, {args.runs} runs each (standard error of a 5% rate: {error:.1%}), "
          f"a look every {args.batch} pairs")
    print(f"{'elo0,elo1':>10} {'ratio':>6} {'true':>6} {'test':>12} {'H1':>6} {'H0':>6} {'none':>5} "
          f"{'avg pairs':>10} {'seconds':>8}")
    for gap in (float(text) for text in args.gaps.split(",")):
        sprt = Sprt(0, gap)
        for ratio in (float(text) for text in args.ratios.split(",")):
            for true in (0, gap / 2, gap):
                started = time.monotonic()
                runs = [simulate(sprt, true, ratio, args.batch, args.limit, chooser, not args.adjusted_only,
                                 args.min_pairs) for _ in range(args.runs)]
                seconds = time.monotonic() - started
                for test in runs[0]:
                    share, pairs = rates([run[test] for run in runs])
                    print(f"{f'0,{gap:g}':>10} {ratio:>6.2f} {true:>6g} {test:>12} {share['H1 accepted']:>6.1%} "
                          f"{share['H0 accepted']:>6.1%} {share['inconclusive']:>5.0%} {pairs:>10.0f} "
                          f"{seconds:>8.1f}")


if __name__ == "__main__":
    main()
