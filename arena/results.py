"""The one scoring rule: how a finished game counts.

A finished game gives every seat a *placement*: 1 is best, and seats with the
same placement tie (competition ranking: two seats tied first, the next is
third, (1, 1, 3)). A seat whose bot forfeited is placed below every seat
that played on. Everything that counts results asks this module (the
store's points, Elo, the joint fit, standings, head-to-head, the site,
``arena match``, the house bots), so a result means one thing everywhere:

* **Pairwise**: between two seats, the better placement wins and equal
  placements draw. This is what Elo and the joint fit count, one result per
  pair of seats held by two different bots.
* **Points**: a seat's share of its pairwise results, ``(seats it placed
  ahead of + half the seats it tied with) / (seats - 1)``, from 0 to 1. With
  two seats: 1 for a win, 0 for a loss, 1/2 each for a draw.
* **Win, draw or loss** of a game: a win for a seat placed first alone, a
  draw for a seat sharing first place, a loss otherwise.

So a *shared win* (Ciclovia's tie on points and tie-break, which the
rulebook leaves shared) is a draw between the seats that share it, in every
column and every rating; when all seats share it, it is a draw like any
other. Where only winners are named, the winners are placed 1 and every
other seat ties behind them in competition ranking (placement
``len(winners) + 1``); a draw places everyone first.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from enum import Enum

Placements = tuple[int, ...]


class Verdict(Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


def placements_from_winners(players: int, winners: Iterable[int]) -> Placements:
    """Placements where only winners are known (games stored before
    placements were): winners first, the others tied behind them in
    competition ranking (two winners of four: the others are third); no
    winner is a draw, everyone first."""
    chosen = set(winners)
    if not chosen:
        return (1,) * players
    return tuple(1 if seat in chosen else len(chosen) + 1 for seat in range(players))


def winners(placements: Sequence[int]) -> tuple[int, ...]:
    """The seats placed first; none when every seat is (a draw)."""
    first = tuple(seat for seat, place in enumerate(placements) if place == 1)
    return () if len(first) == len(placements) > 1 else first


def pairwise(placements: Sequence[int]) -> Iterator[tuple[int, int, float]]:
    """Every pair of seats ``(i, j)``, ``i < j``, with the score of seat i
    against seat j: 1 if i placed ahead, 0 if behind, 1/2 for a tie."""
    for i, j in itertools.combinations(range(len(placements)), 2):
        if placements[i] == placements[j]:
            yield i, j, 0.5
        else:
            yield i, j, 1.0 if placements[i] < placements[j] else 0.0


def pairwise_between_bots(seats: Sequence[str], placements: Sequence[int]) -> Iterator[tuple[str, str, float]]:
    """The pairwise results as ``(bot a, bot b, score of a)``, leaving out
    pairs of seats held by one bot (a bot does not rate against itself)."""
    for i, j, score in pairwise(placements):
        if seats[i] != seats[j]:
            yield seats[i], seats[j], score


def points(placements: Sequence[int]) -> tuple[float, ...]:
    """Each seat's share of its pairwise results (0 to 1). A one-seat game
    has no opponent: 0."""
    others = len(placements) - 1
    if others == 0:
        return (0.0,)
    totals = [0.0] * len(placements)
    for i, j, score in pairwise(placements):
        totals[i] += score
        totals[j] += 1.0 - score
    return tuple(total / others for total in totals)


def verdict(placements: Sequence[int], seat: int) -> Verdict:
    """The game for one seat: won (first alone), drawn (first shared) or lost."""
    if placements[seat] != 1:
        return Verdict.LOSS
    return Verdict.DRAW if list(placements).count(1) > 1 else Verdict.WIN


def first_place_shares(placements: Sequence[int]) -> tuple[float, ...]:
    """One first place shared among the seats that hold it: the value of a
    finished game to a player who plays to win it (the house bots)."""
    first = list(placements).count(1)
    return tuple(1.0 / first if place == 1 else 0.0 for place in placements)



def ordinal(place: int) -> str:
    """A placement for people: 1st, 2nd, 3rd, 4th."""
    return f"{place}{'st' if place == 1 else 'nd' if place == 2 else 'rd' if place == 3 else 'th'}"


def first_place_words(names: Sequence[str], placements: Sequence[int]) -> str:
    """Who placed first, for people: "a draw" where every seat of several
    shares first place, "A and B share first place", or "A wins" ("you
    win", where the person's seat is named "you")."""
    first = [name for name, place in zip(names, placements) if place == 1]
    if len(first) == len(placements) and len(placements) > 1:
        return "a draw"
    if len(first) > 1:
        return " and ".join(first) + " share first place"
    return f"{first[0]} {'win' if first[0] == 'you' else 'wins'}"
