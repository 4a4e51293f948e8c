"""A posterior rating for every version of a rating table, finite from its
first game, and how much the next game would teach: what the league's
matchmaker reads (arena.stats.matchmaking).

**Model.** Plackett–Luce over each game's whole placement, as
:mod:`arena.stats.plackett` (Bradley–Terry at two seats), on the Elo scale.

**Prior.** Every version plays ``PRIOR_DRAWS`` virtual draws against a
virtual bot of rating ``ANCHOR``, the field's centre: the prior of Coulom's
Whole-History Rating (2008, section 2.4, "virtual draws against a virtual
player"), close to BayesElo's virtual draws between opponents. Two virtual
draws weigh as much as one virtual win and one virtual loss: a standard
deviation of 246 Elo before any game, so a version with three games has a
finite rating and an honest, wide interval, and a version that won every
game is rated, not "unbounded". The prior also fixes the scale's origin,
so the information is positive definite and the covariance is its plain
inverse (no centring).

**Posterior.** Its mode, by Newton's method with a backtracking line search
on the log-posterior (concave: the log-likelihood is, and so is the prior),
warm-started from the previous mode, and the inverse of the observed
information at the mode as its covariance: the Laplace approximation, as
BayesElo and WHR use.

**Information of a game.** A k-seat game's expected Fisher information about
its seats' ratings, under the current means: every order of its seats (k!,
at most 24), weighted by its Plackett–Luce probability, each contributing
the information of its stages, ``C^2 (diag p - p p^T)`` over the seats
left (which does not depend on who is then chosen). At two seats this is
``C^2 p (1 - p)`` on the difference, the "variance of the predicted
outcome" of Glicko's and TrueSkill's updates.

**Value of a unit.** A unit (a seat-swapped pair, or a pod's rotations) of
g games among seats A adds ``g M`` to the information (M as above). The
expected shrinkage of the standings' uncertainty is the fall of the trace
of the covariance of the ratings less their mean (the sum of the standings'
variances: the A-optimal criterion of Bayesian experimental design,
Chaloner and Verdinelli 1995), by Woodbury's identity

    tr P Sigma P - tr P (Sigma^-1 + A gM A^T)^-1 P = tr((I + gM S)^-1 gM G_AA)

with ``P = I - J/n`` (centring), ``S = Sigma_AA`` and ``G = Sigma P Sigma``:
a k-by-k solve per candidate.
Per game (divided by g), so that pairs and pods compare at what they cost.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from arena.stats import plackett
from arena.stats.pairs import Z95

ANCHOR = 1500.0
PRIOR_DRAWS = 2.0
DRAWS_RANGE = (0.25, 8.0)  # the fitted prior's weight: a spread of 695 to 123 Elo
_MAX_EM_STEPS = 50
C = plackett.C
_MAX_ITERATIONS = 100
_TOLERANCE = 1e-7  # Elo
Vector = npt.NDArray[np.float64]
Matrix = npt.NDArray[np.float64]


class Outcomes:
    """The placements of one table's games as the fit reads them: full
    orders of version indices (a tie as every order consistent with it, the
    game's weight shared among them, as :mod:`arena.stats.plackett`), grouped
    by length, growing a game at a time. Versions are numbered in the order
    they are first seen, which never renumbers one."""

    def __init__(self) -> None:
        self.versions: list[str] = []
        self.index: dict[str, int] = {}
        self._pending: dict[int, tuple[list[tuple[int, ...]], list[float]]] = {}
        self._arrays: dict[int, tuple[npt.NDArray[np.intp], Vector]] = {}
        self.games = 0

    def version(self, version: str) -> int:
        """The index of a version, numbering it if new (a version without
        games yet has its prior alone)."""
        if version not in self.index:
            self.index[version] = len(self.versions)
            self.versions.append(version)
        return self.index[version]

    def add(self, seats: Sequence[str], placements: Sequence[int], count: float = 1.0) -> None:
        """One game: each seat's version and place (1 best, ties allowed).
        A game of one version in every seat says nothing and is left out."""
        if len(set(seats)) < 2:
            return
        self.games += 1
        groups: dict[int, list[int]] = {}
        for version, place in zip(seats, placements):
            groups.setdefault(place, []).append(self.version(version))
        orders = plackett.orderings([groups[place] for place in sorted(groups)])
        orders_k, weights_k = self._pending.setdefault(len(orders[0]), ([], []))
        for order in orders:
            orders_k.append(order)
            weights_k.append(count / len(orders))

    def rankings(self) -> plackett.Rankings:
        """Every game so far as the Plackett–Luce fit reads it (new games
        appended to the arrays of the earlier ones, not rebuilt)."""
        for length, (orders, weights) in self._pending.items():
            if not orders:
                continue
            new_orders, new_weights = np.array(orders, dtype=np.intp), np.array(weights)
            if length in self._arrays:
                old_orders, old_weights = self._arrays[length]
                new_orders = np.concatenate([old_orders, new_orders])
                new_weights = np.concatenate([old_weights, new_weights])
            self._arrays[length] = new_orders, new_weights
            orders.clear()
            weights.clear()
        return plackett.Rankings.of_arrays([self._arrays[k] for k in sorted(self._arrays)])


@dataclass(frozen=True)
class Posterior:
    """Ratings (Elo, centred on ``ANCHOR`` by the prior) and their covariance
    for the versions of one table, indexed as ``versions``."""

    versions: tuple[str, ...]
    mean: Vector
    covariance: Matrix
    prior_draws: float = PRIOR_DRAWS

    def rating(self, version: str) -> float:
        return float(self.mean[self.versions.index(version)])

    def centred(self) -> Matrix:
        """The covariance of the ratings less their mean: what a standing
        is (games tell differences only; the field's level is the prior's,
        and its uncertainty, shared by every rating, is no one's)."""
        n = len(self.versions)
        centre = np.eye(n) - np.full((n, n), 1.0 / n)
        return np.asarray(centre @ self.covariance @ centre)

    def error(self, version: str) -> float:
        """Half-width of the 95% interval of the version's standing in the field."""
        k = self.versions.index(version)
        return Z95 * math.sqrt(max(0.0, float(self.centred()[k, k])))

    def widths(self) -> Vector:
        """Every version's 95% interval width in the field (twice the half-width)."""
        return np.asarray(2 * Z95 * np.sqrt(np.clip(np.diag(self.centred()), 0.0, None)))


def prior_only(versions: Sequence[str], prior_draws: float = PRIOR_DRAWS) -> Posterior:
    """The posterior before any game."""
    n = len(versions)
    variance = 1.0 / (prior_draws * C * C / 4) if prior_draws > 0 else math.inf
    return Posterior(tuple(versions), np.full(n, ANCHOR), np.diag(np.full(n, variance)), prior_draws)


def fit(outcomes: Outcomes, prior_draws: float = PRIOR_DRAWS, start: Posterior | None = None) -> Posterior:
    """The posterior mode and covariance of every version ``outcomes`` has
    numbered, warm-started from ``start`` (its versions keep their ratings,
    new ones start at the anchor)."""
    if prior_draws <= 0:
        raise ValueError(f"the posterior needs a prior: prior_draws must be above 0, got {prior_draws!r}")
    n = len(outcomes.versions)
    r = np.zeros(n)
    if start is not None:
        known = min(len(start.versions), n)
        r[:known] = start.mean[:known] - ANCHOR
    rankings = outcomes.rankings()
    before = _log_posterior(rankings, r, prior_draws)
    for _ in range(_MAX_ITERATIONS):
        gradient, information = _derivatives(rankings, n, r, prior_draws)
        step = np.linalg.solve(information, gradient)
        scale = 1.0
        while True:
            trial = r + scale * step
            after = _log_posterior(rankings, trial, prior_draws)
            if after >= before - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        r, before = trial, after
        if float(np.max(np.abs(scale * step), initial=0.0)) < _TOLERANCE:
            break
    _, information = _derivatives(rankings, n, r, prior_draws)
    covariance = np.asarray(np.linalg.inv(information), dtype=np.float64)
    return Posterior(tuple(outcomes.versions), r + ANCHOR, covariance, prior_draws)


def fit_to_field(outcomes: Outcomes, start: Posterior | None = None) -> Posterior:
    """The posterior with the prior's weight fitted to the field: empirical
    Bayes, the EM update of a normal prior's variance (``tau^2`` = the mean
    over versions of their squared distance from the anchor plus their
    posterior variance) turned into virtual draws, to convergence, starting
    from ``start``'s (or ``PRIOR_DRAWS``) and kept within ``DRAWS_RANGE``.
    A prior narrower than the field shrinks the best and worst versions
    toward the anchor, and an adaptive design, which matches versions that
    look close, turns that into intervals too narrow (bench/league.py
    measured 0.91 of true ratings inside 95% intervals at a field of 400 Elo
    with two draws, 0.95 with the field's own)."""
    draws = start.prior_draws if start is not None else PRIOR_DRAWS
    fitted = fit(outcomes, draws, start)
    for _ in range(_MAX_EM_STEPS):
        spread = float(np.mean((fitted.mean - ANCHOR) ** 2 + np.diag(fitted.covariance))) if len(fitted.mean) else 0.0
        wanted = min(max(4.0 / (C * C * spread), DRAWS_RANGE[0]), DRAWS_RANGE[1]) if spread > 0 else draws
        if abs(wanted - draws) <= 1e-3 * draws:
            break
        draws = wanted
        fitted = fit(outcomes, draws, fitted)
    return fitted


def _log_posterior(rankings: plackett.Rankings, r: Vector, prior_draws: float) -> float:
    x = C * r
    # Each virtual draw is half a win and half a loss against a bot at the anchor.
    prior = -prior_draws * float(np.sum(0.5 * np.logaddexp(0.0, -x) + 0.5 * np.logaddexp(0.0, x)))
    return plackett.log_likelihood(rankings, r) + prior


def _derivatives(rankings: plackett.Rankings, n: int, r: Vector, prior_draws: float) -> tuple[Vector, Matrix]:
    gradient, information = plackett.derivatives(rankings, n, r)
    p = 1.0 / (1.0 + np.exp(-C * r))
    gradient = gradient + prior_draws * C * (0.5 - p)
    information = information + np.diag(prior_draws * C * C * p * (1.0 - p))
    return gradient, information


# -- what a game would teach ------------------------------------------------------------------


def _orders(k: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Every order of k seats, and for each stage t the one-hot map from the
    seats left (k - t of them) to the k seats: shape (orders, k, k)."""
    orders = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
    onehot = np.zeros((len(orders), k, k))
    onehot[np.arange(len(orders))[:, None], np.arange(k)[None, :], orders] = 1.0
    return orders, onehot


_ORDERS = {k: _orders(k) for k in range(2, 5)}


def game_information(means: Matrix) -> npt.NDArray[np.float64]:
    """The expected Fisher information of one game about its seats' ratings,
    for candidate seatings ``means`` (shape (c, k): each row the ratings of a
    pod's k versions): shape (c, k, k). See "Information of a game" above."""
    count, k = means.shape
    orders, onehot = _ORDERS[k]
    x = C * means[:, orders]  # (c, orders, k): the ratings in each order
    stages = []
    probability = np.ones((count, len(orders)))  # of each whole order
    for t in range(k - 1):
        rest = x[:, :, t:]
        p = np.exp(rest - rest.max(axis=2, keepdims=True))
        p /= p.sum(axis=2, keepdims=True)  # (c, orders, k - t): the choice among the seats left
        probability = probability * p[:, :, 0]
        stages.append(p)
    information = np.zeros((count, k, k))
    for t, p in enumerate(stages):
        stage = np.einsum("cos,st->cost", p, np.eye(k - t)) - p[:, :, :, None] * p[:, :, None, :]
        seats = onehot[:, t:, :]  # (orders, k - t, k)
        information += C * C * np.einsum("co,osa,cost,otb->cab", probability, seats, stage, seats)
    return information


def unit_values(posterior: Posterior, pods: npt.NDArray[np.intp], games: int) -> Vector:
    """The expected fall of the covariance's trace, per game, of a unit of
    ``games`` games for each candidate pod (rows of version indices into the
    posterior): see "Value of a unit" above."""
    sigma = posterior.covariance
    k = pods.shape[1]
    information = games * game_information(posterior.mean[pods])
    s = sigma[pods[:, :, None], pods[:, None, :]]
    n = len(posterior.versions)
    square = sigma @ (np.eye(n) - np.full((n, n), 1.0 / n)) @ sigma
    g = square[pods[:, :, None], pods[:, None, :]]
    system = np.eye(k)[None, :, :] + information @ s
    fall = np.linalg.solve(system, information @ g)
    return np.asarray(np.trace(fall, axis1=1, axis2=2) / games)


def expecting(posterior: Posterior, pod: Sequence[int], games: int) -> Posterior:
    """The posterior's spread once a chosen unit's ``games`` among ``pod``
    (version indices) are in, its means unchanged: what the matchmaker
    reads while that unit is still being played, so that it does not choose
    the same unit again for want of its result (the covariance falls as
    "Value of a unit" says, by the same Woodbury identity)."""
    seats = np.asarray(pod, dtype=np.intp)
    sigma = posterior.covariance
    information = games * game_information(posterior.mean[seats][None, :])[0]
    across = sigma[:, seats]
    system = np.eye(len(seats)) + information @ sigma[np.ix_(seats, seats)]
    fall = across @ np.linalg.solve(system, information @ across.T)
    return Posterior(posterior.versions, posterior.mean, sigma - fall, posterior.prior_draws)
