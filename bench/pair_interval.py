"""How often does the pair statistics' 95% interval hold the true score,
by number of pairs? The reason for ``MIN_PAIRS`` in arena/stats/pentanomial.py.

    nice -n 19 .venv/bin/python bench/pair_interval.py [--draws 200000]

For each pentanomial distribution below (from even to a bot that wins 60%
of its pairs 2-0) and each number of pairs N, it draws N pairs ``--draws``
times and counts how often ``score +- 1.96 sqrt(variance / N)`` (the
interval :class:`arena.stats.pentanomial.PairStats` gives, computed here on
all draws at once) holds the true score, and how often the estimated
variance is 0 (every pair scored alike: a zero-width interval). Prints
"coverage/zero-width" per N.
"""

from __future__ import annotations

import argparse

import numpy as np

DISTRIBUTIONS = {  # shares of pairs scoring 0, 1/2, 1, 3/2, 2 of 2
    "even": (0.1, 0.2, 0.4, 0.2, 0.1),
    "drawish": (0.02, 0.08, 0.8, 0.08, 0.02),
    "stronger": (0.02, 0.08, 0.3, 0.3, 0.3),
    "much stronger": (0.0, 0.02, 0.1, 0.28, 0.6),
}
PAIRS = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30)
Z95 = 1.959964


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    per_game = np.arange(5) / 4
    print(f"{'distribution':14} " + " ".join(f"{n:>11}" for n in PAIRS))
    for name, shares in DISTRIBUTIONS.items():
        p = np.array(shares)
        truth = float((p * per_game).sum())
        cells = []
        for n in PAIRS:
            counts = rng.multinomial(n, p, size=args.draws)
            score = (counts * per_game).sum(axis=1) / n
            variance = (counts * (per_game - score[:, None]) ** 2).sum(axis=1) / n
            held = np.abs(score - truth) <= Z95 * np.sqrt(variance / n)
            cells.append(f"{held.mean():.3f}/{(variance == 0).mean():.3f}")
        print(f"{name:14} " + " ".join(f"{cell:>11}" for cell in cells))


if __name__ == "__main__":
    main()
