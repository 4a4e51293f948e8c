"""The Detour board as data: spaces with coordinates, how they link, the four
Detour Wheels and where they start.

The rulebook's board exists only in pictures we do not have, so this is our
own design (described, with the decisions it carries, in ``seeds/detour.md``). It is written as a compact
description (segments of path between wheels and the centre, drawn as
polylines) from which :data:`BOARD`, plain JSON-able data, is built once at
import. The engine reads only :data:`BOARD`, the same data the leaderboard
draws, so there is one source of truth.

How a board is read
-------------------
* Every space has a list of *ports*, the ways out of it. A plain path space
  (also START and FINISH) has two ports, 0 and 1; travelling through it you
  leave by the port you did not come in by. The centre Star Space has four
  ports (0 north-east, 1 south-east, 2 south-west, 3 north-west); going
  through it you leave by the opposite port (``(port + 2) % 4``). A wheel's
  hub star space has two ports, the two ends of the track that runs through
  the hub.
* A port's link says where it leads: ``{"space": j, "port": q}`` (you arrive
  on space j through its port q), ``{"wheel": w, "rim": r}`` (you reach rim
  point r of wheel w; where you go next depends on how the wheel is turned),
  or, for a hub, ``{"wheel": w, "end": e}`` (track end e of that wheel).
* A wheel has four rim points, numbered clockwise 0 north-east, 1
  south-east, 2 south-west, 3 north-west, each facing one board space. The
  disc carries track ends 0..3: ends 0 and 1 are joined by the track through
  the hub, ends 2 and 3 by a bare arc with no space on it. With the wheel at
  orientation k, end e sits at rim point ``(e + k) % 4``; a clockwise quarter
  turn adds one to k.
"""

from __future__ import annotations

import math
from typing import Any

NE, SE, SW, NW = 0, 1, 2, 3
A, B, C, D = 0, 1, 2, 3
COMPASS = ("ne", "se", "sw", "nw")
OFFSETS = ((1, -1), (1, 1), (-1, 1), (-1, -1))   # screen coordinates, y down

WHEEL_NAMES = ("A", "B", "C", "D")
WHEEL_HUBS = ((25.0, 25.0), (75.0, 25.0), (25.0, 75.0), (75.0, 75.0))
WHEEL_RADIUS = 8.0
RIM_SPACE_OFFSET = 6.5      # a rim point's board space sits this far out on each axis
CENTRE_XY = (50.0, 50.0)
CENTRE_SPACE_OFFSET = 4.5   # likewise for the four spaces around the centre
HUB_ENDS = (0, 1)           # track ends joined through the hub
ARC_ENDS = (2, 3)           # track ends joined by the bare arc
# Where the wheels stand at the start of a game (orientation k per wheel):
# mirror-symmetric, so both START spaces face the same kind of route, each
# through a hub, an outer loop's star and another hub (31 spaces to FINISH).
START_ORIENTATIONS = (3, 3, 1, 1)

# The path between wheels and centre, as segments: (name, first terminal,
# last terminal, polyline corners between the two, number of spaces,
# {index on the segment: special kind}). A terminal is ("wheel", w, rim) or
# ("centre", port). Space i of a segment has port 0 towards space i - 1 (or
# the first terminal) and port 1 towards space i + 1 (or the last terminal).
SEGMENTS: tuple[tuple[str, tuple, tuple, tuple, int, dict[int, str]], ...] = (
    ("diagonal A-centre", ("wheel", A, SE), ("centre", NW), (), 5, {}),
    ("diagonal centre-D", ("centre", SE), ("wheel", D, NW), (), 5, {}),
    ("diagonal B-centre", ("wheel", B, SW), ("centre", NE), (), 5, {}),
    ("diagonal centre-C", ("centre", SW), ("wheel", C, NE), (), 5, {}),
    ("top side", ("wheel", A, NE), ("wheel", B, NW), (), 9, {3: "finish", 5: "finish"}),
    ("right side", ("wheel", B, SE), ("wheel", D, NE), (), 8, {}),
    ("bottom side", ("wheel", C, SE), ("wheel", D, SW), (), 9, {3: "start", 5: "start"}),
    ("left side", ("wheel", C, NW), ("wheel", A, SW), (), 8, {}),
    ("left loop", ("wheel", A, NW), ("wheel", C, SW),
     ((9.0, 9.0), (4.0, 20.0), (4.0, 80.0), (9.0, 91.0)), 22, {11: "star"}),
    ("right loop", ("wheel", B, NE), ("wheel", D, SE),
     ((91.0, 9.0), (96.0, 20.0), (96.0, 80.0), (91.0, 91.0)), 22, {11: "star"}),
)
# The arrow of each START space (by its index on the bottom side), as the
# port it points out of: START 0 points west towards wheel C, START 1 east
# towards wheel D.
START_ARROWS = {3: 0, 5: 1}


def _rim_xy(wheel: int, rim: int) -> tuple[float, float]:
    x, y = WHEEL_HUBS[wheel]
    dx, dy = OFFSETS[rim]
    return (x + dx * RIM_SPACE_OFFSET, y + dy * RIM_SPACE_OFFSET)


def _centre_xy(port: int) -> tuple[float, float]:
    dx, dy = OFFSETS[port]
    return (CENTRE_XY[0] + dx * CENTRE_SPACE_OFFSET, CENTRE_XY[1] + dy * CENTRE_SPACE_OFFSET)


def _terminal_xy(terminal: tuple) -> tuple[float, float]:
    if terminal[0] == "wheel":
        return _rim_xy(terminal[1], terminal[2])
    return _centre_xy(terminal[1])


def _spread(points: list[tuple[float, float]], count: int) -> list[tuple[float, float]]:
    """``count`` points evenly spaced along a polyline, both ends included."""
    lengths = [math.dist(p, q) for p, q in zip(points, points[1:])]
    total = sum(lengths)
    spread = []
    for index in range(count):
        along = total * index / (count - 1)
        leg = 0
        while leg < len(lengths) - 1 and along > lengths[leg]:
            along -= lengths[leg]
            leg += 1
        (x0, y0), (x1, y1) = points[leg], points[leg + 1]
        t = min(1.0, along / lengths[leg])
        spread.append((round(x0 + (x1 - x0) * t, 2), round(y0 + (y1 - y0) * t, 2)))
    return spread


def _rim_point(wheel: int, rim: int) -> tuple[float, float]:
    """Where rim point ``rim`` lies on the disc's edge (for drawing)."""
    x, y = WHEEL_HUBS[wheel]
    dx, dy = OFFSETS[rim]
    step = WHEEL_RADIUS / math.sqrt(2)
    return (round(x + dx * step, 2), round(y + dy * step, 2))


def _build() -> dict[str, Any]:
    spaces: list[dict[str, Any]] = []

    def add(x: float, y: float, kind: str, ports: int) -> int:
        spaces.append({"id": len(spaces), "x": x, "y": y, "kind": kind,
                       "ports": [None] * ports})
        return len(spaces) - 1

    centre = add(*CENTRE_XY, "centre", 4)
    wheels = []
    for wheel, (hx, hy) in enumerate(WHEEL_HUBS):
        hub = add(hx, hy, "hub", 2)
        spaces[hub]["wheel"] = wheel
        spaces[hub]["ports"] = [{"wheel": wheel, "end": 0}, {"wheel": wheel, "end": 1}]
        wheels.append({"id": wheel, "name": WHEEL_NAMES[wheel], "hub": hub, "x": hx, "y": hy,
                       "radius": WHEEL_RADIUS, "rims": [None] * 4})
    starts, finishes, segments = [], [], []
    for name, first, last, corners, count, specials in SEGMENTS:
        xy = _spread([_terminal_xy(first), *corners, _terminal_xy(last)], count)
        ids = [add(x, y, specials.get(i, "path"), 2) for i, (x, y) in enumerate(xy)]
        for i, here in enumerate(ids[1:], 1):
            spaces[here]["ports"][0] = {"space": ids[i - 1], "port": 1}
            spaces[ids[i - 1]]["ports"][1] = {"space": here, "port": 0}
        for end_space, end_port, terminal in ((ids[0], 0, first), (ids[-1], 1, last)):
            if terminal[0] == "wheel":
                wheel, rim = terminal[1], terminal[2]
                spaces[end_space]["ports"][end_port] = {"wheel": wheel, "rim": rim}
                rx, ry = _rim_point(wheel, rim)
                wheels[wheel]["rims"][rim] = {"space": end_space, "port": end_port,
                                              "x": rx, "y": ry}
            else:
                spaces[end_space]["ports"][end_port] = {"space": centre, "port": terminal[1]}
                spaces[centre]["ports"][terminal[1]] = {"space": end_space, "port": end_port}
        for index, kind in sorted(specials.items()):
            if kind == "start":
                arrow = START_ARROWS[index]
                toward = ids[index - 1] if arrow == 0 else ids[index + 1]
                starts.append({"space": ids[index], "arrow": arrow, "toward": toward})
            elif kind == "finish":
                finishes.append(ids[index])
        segments.append({"name": name, "spaces": ids})
    return {
        "spaces": spaces,
        "centre": centre,
        "wheels": wheels,
        "hub_ends": list(HUB_ENDS),
        "arc_ends": list(ARC_ENDS),
        "start_orientations": list(START_ORIENTATIONS),
        "starts": starts,
        "finishes": finishes,
        "stars": [space["id"] for space in spaces if space["kind"] == "star"],
        "segments": segments,
        "tracks": "at orientation k a wheel's hub track joins rims k and k+1 through the "
                  "hub, its arc joins rims k+2 and k+3; cw adds 1 to k, ccw takes 1, half adds 2",
        "compass": list(COMPASS),
        "box": [0, 0, 100, 100],
    }


BOARD: dict[str, Any] = _build()
