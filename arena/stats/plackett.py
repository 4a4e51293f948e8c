"""The Plackett–Luce model: the likelihood of a whole game's placement.

A game of k seats is one ranking of its bots, not k(k-1)/2 independent
pairwise results: splitting it into pairs counts the same game several
times and gives intervals that are too narrow (simulated pods at four seats:
95% intervals covering the truth 88% of the time). Plackett–Luce (Luce's
choice axiom, Plackett 1975) gives bot i the strength ``w_i = 10^(r_i/400)``
and a full order ``o_1, ..., o_k`` (best first) the probability

    prod over t < k of  w_{o_t} / (w_{o_t} + w_{o_{t+1}} + ... + w_{o_k})

the first place chosen among all seats in proportion to strength, the second
among the rest, and so on. With two seats this is Bradley–Terry,
``1 / (1 + 10^((r_j - r_i)/400))``: the same Elo scale as the two-seat
tables and :mod:`arena.stats.elo`.

**Ties** (a shared place) are **tie-averaged**: a game whose places tie is
every full order consistent with the tie, each with weight ``1/m`` for the
``m`` such orders, so its log-likelihood is the average of theirs. At two
seats this is exactly what Bradley–Terry does with a draw (half a win and
half a loss, as Ordo and arena's two-seat fit count it), so the two models
agree on every two-seat table, draws included. Why not the coarsened
likelihood (the probability that *some* consistent order happened, the sum
instead of the average): with two seats a draw would then have probability
1 and say nothing, and two-seat tables would no longer be Bradley–Terry.
Why not Davidson–Luce: it adds a tie parameter per tie size that arena's
games (ties are rare and mostly shared first places) cannot estimate well,
and it too differs from today's two-seat draws. A game of four seats has at
most 4! = 24 consistent orders, so the expansion is cheap.

This module gives the log-likelihood, its gradient and the observed
information (minus its Hessian, positive semi-definite with the all-ones
vector in its null space: only differences are identified); the fit, with
the prior that makes every rating finite, is :mod:`arena.stats.posterior`'s.
Games with the same tie groups are counted once with their number, so the
work grows with distinct outcomes, not games.

numpy does the linear algebra and the per-stage softmax over thousands of
games. choix's ``opt_rankings`` fits the same model, but without ties and
without intervals (the two things needed here), and it needs scipy: on 20
simulated four-seat tables (8 bots, 240 games) it agreed with this fit to
1e-5 Elo and took 2.4 s a table against 4 ms. A library would have
replaced only the ten lines of Newton's method.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

C = math.log(10.0) / 400.0  # d log w / d r: ratings on the Elo scale
Groups = Sequence[Sequence[int]]  # the tie groups of a game, best first, as bot indices


def orderings(groups: Groups) -> list[tuple[int, ...]]:
    """Every full order consistent with a game's tie groups (the bots of a
    group in every order, groups kept in place)."""
    parts = [list(itertools.permutations(group)) for group in groups]
    return [tuple(bot for part in choice for bot in part) for choice in itertools.product(*parts)]


class Rankings:
    """Full orders with weights, grouped by length for vectorised sums: a
    game of k seats with tied places becomes its consistent orders, the
    game's count shared among them (see Ties above)."""

    def __init__(self, games: Iterable[tuple[Groups, float]]) -> None:
        orders: dict[int, list[tuple[int, ...]]] = {}
        weights: dict[int, list[float]] = {}
        for groups, count in games:
            expanded = orderings(groups)
            if len(expanded[0]) < 2:
                continue
            for order in expanded:
                orders.setdefault(len(order), []).append(order)
                weights.setdefault(len(order), []).append(count / len(expanded))
        self.by_length = [(np.array(orders[k], dtype=np.intp), np.array(weights[k])) for k in sorted(orders)]

    @classmethod
    def of_arrays(cls, by_length: list[tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]]) -> Rankings:
        """Rankings already in arrays (orders and weights, one pair per
        length): what a table growing a game at a time keeps
        (arena.stats.posterior.Outcomes)."""
        rankings = cls(())
        rankings.by_length = by_length
        return rankings


def log_likelihood(rankings: Rankings, r: npt.NDArray[np.float64]) -> float:
    total = 0.0
    for order, weight in rankings.by_length:
        x = C * r[order]
        for t in range(order.shape[1] - 1):
            rest = x[:, t:]
            top = rest.max(axis=1)
            total += float(weight @ (x[:, t] - top - np.log(np.exp(rest - top[:, None]).sum(axis=1))))
    return total


def derivatives(rankings: Rankings, n: int, r: npt.NDArray[np.float64]
                ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The gradient of the log-likelihood and minus its Hessian (the
    observed information) at ratings ``r``. Each stage of an order is a
    softmax choice among the seats left: gradient ``C (chosen - p)``,
    information ``C^2 (diag p - p p^T)``, summed over bots (a bot in two
    seats of one game adds both)."""
    gradient = np.zeros(n)
    information = np.zeros((n, n))
    for order, weight in rankings.by_length:
        x = C * r[order]
        for t in range(order.shape[1] - 1):
            seats = order[:, t:]
            p = np.exp(x[:, t:] - x[:, t:].max(axis=1)[:, None])
            p /= p.sum(axis=1)[:, None]
            weighted = weight[:, None] * p
            expected = np.bincount(seats.ravel(), weights=weighted.ravel(), minlength=n)
            gradient += C * (np.bincount(seats[:, 0], weights=weight, minlength=n) - expected)
            cells = seats[:, :, None] * n + seats[:, None, :]
            outer = np.bincount(cells.ravel(), weights=(weighted[:, :, None] * p[:, None, :]).ravel(),
                                minlength=n * n).reshape(n, n)
            information += C * C * (np.diag(expected) - outer)
    return gradient, information
