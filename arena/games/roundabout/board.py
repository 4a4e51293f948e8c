"""The Roundabout board as data: one source of truth for the engine, the rules
document (``seeds/roundabout.md``, which also lists the decisions this layout
carries) and the drawing.

The board is a wheel: five concentric rings (ring 0 innermost, ring 4
outermost) crossed by sixteen bars (spokes) numbered 0 to 15 clockwise, so
there are 80 spaces. Space ``s`` is ring ``s // 16`` on bar ``s % 16``.
Bars 15 and 0 are consecutive: the rings close on themselves.

The four Home Territories are quarters of the wheel: territory ``t`` is bars
``4t`` to ``4t + 3`` on all five rings (20 spaces). Territories are numbered
clockwise, like the bars and like the order of play.

Drawing: the centre of the wheel is (50, 50); bar ``b`` is centred on the
angle ``90 + 22.5 * (b + 0.5)`` degrees measured with the y axis pointing
down (as in SVG), so bar 0 starts at the bottom and the bars run clockwise
on screen. Ring ``r`` sits at radius ``RING_RADII[r]``.
"""

from __future__ import annotations

import math
from typing import Any

RINGS = 5
BARS = 16
TERRITORIES = 4
BARS_PER_TERRITORY = BARS // TERRITORIES
SPACES = RINGS * BARS

CENTRE = (50.0, 50.0)
RING_RADII: tuple[float, ...] = (16.0, 23.5, 31.0, 38.5, 46.0)
TERRITORY_COLOURS: tuple[str, ...] = ("red", "green", "blue", "yellow")

# Which territory each seat takes, by player count. Two players take
# opposite territories; three take three of the four (the fourth stays
# empty); four take one each. Seats follow the clockwise order of play.
SEAT_TERRITORIES: dict[int, tuple[int, ...]] = {
    2: (0, 2),
    3: (0, 1, 2),
    4: (0, 1, 2, 3),
}

# Darts per player and how many rings of each of the two centre bars they
# fill, counting from the innermost ring outward.
DARTS_PER_PLAYER: dict[int, int] = {2: 10, 3: 8, 4: 6}

# A Dart's direction round its ring: +1 clockwise (bar numbers increasing),
# -1 anticlockwise.
CLOCKWISE, ANTICLOCKWISE = 1, -1


def space(ring: int, bar: int) -> int:
    """The number of the space on ``ring`` and ``bar`` (bar taken modulo 16)."""
    return ring * BARS + bar % BARS


def territory_bars(territory: int) -> tuple[int, ...]:
    first = territory * BARS_PER_TERRITORY
    return tuple(range(first, first + BARS_PER_TERRITORY))


def coordinates(ring: int, bar: int) -> tuple[float, float]:
    """Where the centre of a space is drawn, in a 0..100 box."""
    angle = math.radians(90.0 + 360.0 / BARS * (bar + 0.5))
    radius = RING_RADII[ring]
    return (round(CENTRE[0] + radius * math.cos(angle), 3),
            round(CENTRE[1] + radius * math.sin(angle), 3))


def setup(players: int) -> list[list[tuple[int, int]]]:
    """The starting Darts of every seat as (space, direction), in Dart order.

    Every seat is set up alike in its own territory: the Darts stand on the
    territory's two centre bars, on the innermost rings (5, 4 or 3 rings for
    2, 3 or 4 players), all pointing out of the territory: those on the
    centre bar nearer the territory's anticlockwise edge point anticlockwise,
    those on the other centre bar point clockwise. Dart numbers run over the
    anticlockwise bar from the centre outward, then over the clockwise bar.
    """
    rings = DARTS_PER_PLAYER[players] // 2
    seats = []
    for territory in SEAT_TERRITORIES[players]:
        first = territory * BARS_PER_TERRITORY
        darts = [(space(ring, first + 1), ANTICLOCKWISE) for ring in range(rings)]
        darts += [(space(ring, first + 2), CLOCKWISE) for ring in range(rings)]
        seats.append(darts)
    return seats


def board_data() -> dict[str, Any]:
    """The board as JSON-able data (``GAME.board``)."""
    return {
        "rings": RINGS,
        "bars": BARS,
        "space_numbering": "space = ring * 16 + bar; ring 0 innermost, bars clockwise",
        "spaces": [
            {"id": space(ring, bar), "ring": ring, "bar": bar,
             "territory": bar // BARS_PER_TERRITORY,
             "x": coordinates(ring, bar)[0], "y": coordinates(ring, bar)[1]}
            for ring in range(RINGS) for bar in range(BARS)
        ],
        "territories": [
            {"id": t, "colour": TERRITORY_COLOURS[t], "bars": list(territory_bars(t))}
            for t in range(TERRITORIES)
        ],
        "drawing": {
            "centre": list(CENTRE),
            "ring_radii": list(RING_RADII),
            "bar_angle": "90 + 22.5 * (bar + 0.5) degrees, y axis down",
            "bar_width_degrees": 360.0 / BARS,
        },
        "directions": {"1": "clockwise (bar numbers increase)",
                       "-1": "anticlockwise (bar numbers decrease)"},
        "seat_territories": {str(n): list(t) for n, t in SEAT_TERRITORIES.items()},
        "darts_per_player": {str(n): d for n, d in DARTS_PER_PLAYER.items()},
        "setups": {
            str(n): [[{"space": s, "dir": d} for s, d in seat] for seat in setup(n)]
            for n in SEAT_TERRITORIES
        },
    }
