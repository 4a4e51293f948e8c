"""The Slyyde board as data: one source of truth for the engine, the rules
document (``seeds/slyyde.md``, which also lists the decisions this layout
carries) and the drawing.

The track is a clockwise square spiral filling a 10 x 10 grid: square 0 (the
Start) is the top-left cell, the track runs right along the top row, down the
right column, and so on inward, and square 99 (the Centre) is the last cell.
Because the grid is filled, a row or column crosses every ring it meets, so a
Slyyde Triangle's straight path cuts across the spiral and holds squares far
further along the track than its Safe square: that is what makes the
rulebook's Fun Fact true (triangle 37 -> Safe 56 sweeps a pawn on 64 back 8
spaces; triangle 6 -> Safe 21 sweeps 41 back 20 and 90 back 69).

The special squares are written out literally (not derived), so the tests can
check them against the geometry instead of against themselves.
"""

from __future__ import annotations

from typing import Any

GRID = 10
CELL = 10.0
START = 0
CENTRE = GRID * GRID - 1

# Slyyde Triangles: the triangle, its Safe square and the squares on the
# straight line between them, in order from the triangle to the Safe square.
TRIANGLES: tuple[tuple[int, int, tuple[int, ...]], ...] = (
    (6, 21, (41, 68, 87, 88, 89, 90, 75, 52)),
    (13, 32, (46, 71, 88, 97, 96, 95, 82, 61)),
    (29, 49, (58, 79, 78, 77, 76, 75, 74)),
    (37, 56, (64, 83, 82, 81, 80, 79)),
    (53, 67, (76, 91, 98, 97, 86)),
)

# Safe squares: the triangles' Safe squares and a few others. The Start is
# also immune (see the rules document, decision 1) but is listed apart.
SAFE: tuple[int, ...] = (10, 21, 32, 49, 56, 67, 88)

# Black squares and the square diagonally inward from each (one step inward,
# one step ahead along the direction of travel).
BLACK: tuple[tuple[int, int], ...] = (
    (1, 37),
    (16, 50),
    (33, 63),
    (58, 80),
    (70, 88),
)

# Move-Any-Player-Back-6 squares.
BACK6: tuple[int, ...] = (9, 26, 44, 63, 78, 85)


def spiral_cells(size: int = GRID) -> list[tuple[int, int]]:
    """The (column, row) of every square in track order: a clockwise walk
    from the top-left corner that turns right whenever the next cell is off
    the grid or already on the track."""
    cells = [(0, 0)]
    seen = {(0, 0)}
    steps = ((1, 0), (0, 1), (-1, 0), (0, -1))
    heading = 0
    while len(cells) < size * size:
        col, row = cells[-1]
        dx, dy = steps[heading]
        nxt = (col + dx, row + dy)
        if not (0 <= nxt[0] < size and 0 <= nxt[1] < size) or nxt in seen:
            heading = (heading + 1) % 4
            continue
        cells.append(nxt)
        seen.add(nxt)
    return cells


def _kind(square: int) -> str:
    if square == START:
        return "start"
    if square == CENTRE:
        return "centre"
    if square in SAFE:
        return "safe"
    if any(square == t for t, _, _ in TRIANGLES):
        return "triangle"
    if any(square == b for b, _ in BLACK):
        return "black"
    if square in BACK6:
        return "back6"
    return "plain"


def board_data() -> dict[str, Any]:
    """The board as JSON-able data (GAME.board)."""
    squares = [{"n": n, "col": col, "row": row,
                "x": col * CELL + CELL / 2, "y": row * CELL + CELL / 2,
                "kind": _kind(n)}
               for n, (col, row) in enumerate(spiral_cells())]
    return {
        "shape": "square spiral",
        "grid": GRID,
        "cell": CELL,
        "box": [0.0, 0.0, GRID * CELL, GRID * CELL],
        "start": START,
        "centre": CENTRE,
        "squares": squares,
        "safe": list(SAFE),
        "immune": sorted({START, *SAFE}),
        "black": [{"square": b, "diagonal": d} for b, d in BLACK],
        "triangles": [{"square": t, "safe": s, "path": list(p)} for t, s, p in TRIANGLES],
        "back6": list(BACK6),
    }
