"""The Ciclovia city as data: one source of truth for the engine, the rules
document (``seeds/ciclovia.md``, which also lists the decisions this layout
carries) and the drawing.

The rulebook shows the city only in pictures, so this layout is ours. The
city is a fine grid: every block is a 2 x 2 square of cells and one-cell-wide
streets run round every block, so the grid is 25 cells wide (x 0..24) and 10
high (y 0..9). Block column c (1..8) covers x = 3c-2 and 3c-1, block row r
(1..3) covers y = 3r-2 and 3r-1; the streets are the lines x = 0, 3, ..., 24
and y = 0, 3, 6, 9. Every street cell is a space a rider can stand on.
"Forward" is east (towards the arrival points, larger x).

Around the grid: the garage, the shared start west of the city (x = -1),
whose exits are the west ends of the four east-west streets; and four
arrival points east of the city (x = 25), one at the east end of each
east-west street.

The door table and the brown streets are written out literally; everything
else (which cell is a street, its neighbours, its drawing coordinates) follows
from the grid rule above.
"""

from __future__ import annotations

from typing import Any

COLUMNS = 8
ROWS = 3
WIDTH = 3 * COLUMNS + 1     # 25 cells, x 0..24
HEIGHT = 3 * ROWS + 1       # 10 cells, y 0..9
LIGHT_X = 12                # the street just east of block column 4
LIGHT_COLUMN = 4
CELL = 3.5                  # drawing units per cell
GARAGE_X = -1
ARRIVAL_X = WIDTH

# Brown (fast bike lane) streets: the two outer east-west streets and one
# north-south street in the middle of each stage. The layout is symmetric
# north-south, so no part of the city is favoured.
BROWN_ROWS = (0, 9)         # east-west streets y = 0 and y = 9, whole length
BROWN_COLUMNS = (6, 18)     # north-south streets x = 6 and x = 18, whole length

# Door positions round a block, clockwise from the north-west corner: the two
# cells north of it (west, east), east of it (north, south), south of it
# (east, west), west of it (south, north).
DOOR_POSITIONS = ("N-west", "N-east", "E-north", "E-south",
                  "S-east", "S-west", "W-south", "W-north")

# DOORS[column - 1][row - 1]: eight characters, one per door position above,
# a digit for a door with that number, "." for a wall without a door. Every
# block has each number 1-6 exactly once, and a door on every side but one:
# the blocks of column 4 turn a wall to the traffic-light street (x = 12),
# because stepping onto that street ends stage 1 at once, so a stage-1 door
# there could never be used (decision 2). Where two blocks face each other
# across a street, their doors often share a cell: a rider there stands at
# two doors at once.
DOORS: tuple[tuple[str, str, str], ...] = (
    ("23.16.54", "364.1.25", "5.361.42"),   # column 1
    ("3.6512.4", "562.134.", "2.4315.6"),   # column 2
    ("13.546.2", ".3.26541", "2.63415."),   # column 3
    ("56..2341", "43..1265", "16..2453"),   # column 4: a wall on the light street
    ("456.23.1", "6345.1.2", "62.54.13"),   # column 5
    ("2641.35.", "625.341.", "136.2.45"),   # column 6
    ("153..624", "61245..3", "6.35124."),   # column 7
    ("61425.3.", "4132.6.5", ".52461.3"),   # column 8
)

COLOURS = ("blue", "red", "green", "orange")
DICE_PER_COLOUR = 6          # the box: 24 dice
STAGE_DICE_PER_COLOUR = 3    # each stage is dealt 3 dice of each colour


def is_street(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT and (x % 3 == 0 or y % 3 == 0)


def lane(x: int, y: int) -> str:
    return "brown" if y in BROWN_ROWS or x in BROWN_COLUMNS else "grey"


def block_id(column: int, row: int) -> int:
    """Blocks are numbered column by column: 0-11 are stage 1 (columns
    1-4), 12-23 stage 2 (columns 5-8)."""
    return (column - 1) * ROWS + (row - 1)


def door_cells(column: int, row: int) -> list[tuple[int, int, str]]:
    """The street cell in front of each door position, with the side it is on."""
    x0, x1, y0, y1 = 3 * column - 2, 3 * column - 1, 3 * row - 2, 3 * row - 1
    return [(x0, y0 - 1, "N"), (x1, y0 - 1, "N"), (x1 + 1, y0, "E"), (x1 + 1, y1, "E"),
            (x1, y1 + 1, "S"), (x0, y1 + 1, "S"), (x0 - 1, y1, "W"), (x0 - 1, y0, "W")]


def draw_x(x: float) -> float:
    return round((x - GARAGE_X + 1) * CELL, 2)


def draw_y(y: float) -> float:
    return round((y + 1) * CELL, 2)


def _spaces() -> tuple[list[dict[str, Any]], dict[tuple[int, int], int]]:
    spaces: list[dict[str, Any]] = [{
        "id": 0, "kind": "garage", "gx": GARAGE_X, "gy": (HEIGHT - 1) / 2,
        "x": draw_x(GARAGE_X), "y": draw_y((HEIGHT - 1) / 2), "lane": "grey", "light": False}]
    ids: dict[tuple[int, int], int] = {}
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if is_street(x, y):
                ids[(x, y)] = len(spaces)
                crossing = x % 3 == 0 and y % 3 == 0
                spaces.append({
                    "id": len(spaces), "kind": "crossing" if crossing else "street",
                    "gx": x, "gy": y, "x": draw_x(x), "y": draw_y(y),
                    "lane": lane(x, y), "light": x == LIGHT_X})
    for y in range(0, HEIGHT, 3):
        ids[(ARRIVAL_X, y)] = len(spaces)
        spaces.append({"id": len(spaces), "kind": "arrival", "gx": ARRIVAL_X, "gy": y,
                       "x": draw_x(ARRIVAL_X), "y": draw_y(y), "lane": "grey", "light": False})
    return spaces, ids


STEPS = (("N", 0, -1), ("E", 1, 0), ("S", 0, 1), ("W", -1, 0))


def _exits(spaces: list[dict[str, Any]], ids: dict[tuple[int, int], int]) -> None:
    """Give every space its exits: [direction, space] pairs in the order N, E,
    S, W. The garage leads east to the four street ends; an arrival point
    leads nowhere."""
    for space in spaces:
        if space["kind"] == "garage":
            space["exits"] = [["E", ids[(0, y)]] for y in range(0, HEIGHT, 3)]
            continue
        if space["kind"] == "arrival":
            space["exits"] = []
            continue
        x, y = space["gx"], space["gy"]
        space["exits"] = [[d, ids[(x + dx, y + dy)]] for d, dx, dy in STEPS
                          if (x + dx, y + dy) in ids]


def _blocks(ids: dict[tuple[int, int], int]) -> list[dict[str, Any]]:
    blocks = []
    for column in range(1, COLUMNS + 1):
        for row in range(1, ROWS + 1):
            layout = DOORS[column - 1][row - 1]
            x0, y0 = 3 * column - 2, 3 * row - 2
            doors: list[dict[str, Any]] = []
            places = zip(layout, door_cells(column, row), DOOR_POSITIONS)
            for char, (x, y, side), position in places:
                if char == ".":
                    continue
                # The door is drawn on the block's wall, halfway to the street cell.
                wall_x = x + {"E": -0.5, "W": 0.5}.get(side, 0.0)
                wall_y = y + {"S": -0.5, "N": 0.5}.get(side, 0.0)
                doors.append({"number": int(char), "space": ids[(x, y)], "side": side,
                              "position": position, "x": draw_x(wall_x), "y": draw_y(wall_y)})
            blocks.append({
                "id": block_id(column, row), "column": column, "row": row,
                "stage": 1 if column <= LIGHT_COLUMN else 2,
                "x": draw_x(x0 + 0.5), "y": draw_y(y0 + 0.5),
                "box": [draw_x(x0 - 0.5), draw_y(y0 - 0.5), draw_x(x0 + 1.5), draw_y(y0 + 1.5)],
                "doors": sorted(doors, key=lambda d: d["number"])})
    return blocks


def board_data() -> dict[str, Any]:
    """The whole board as JSON-able data (GAME.board)."""
    spaces, ids = _spaces()
    _exits(spaces, ids)
    return {
        "grid": {"columns": COLUMNS, "rows": ROWS, "width": WIDTH, "height": HEIGHT,
                 "cell": CELL, "block_cells": 2},
        "width": draw_x(ARRIVAL_X + 1), "height": draw_y(HEIGHT),
        "spaces": spaces,
        "garage": 0,
        "entries": [ids[(0, y)] for y in range(0, HEIGHT, 3)],
        "arrivals": [ids[(ARRIVAL_X, y)] for y in range(0, HEIGHT, 3)],
        "light": {"column": LIGHT_COLUMN, "gx": LIGHT_X,
                  "spaces": [ids[(LIGHT_X, y)] for y in range(HEIGHT)],
                  "x": draw_x(LIGHT_X), "y": draw_y(-0.6)},
        "brown": {"rows": list(BROWN_ROWS), "columns": list(BROWN_COLUMNS)},
        "blocks": _blocks(ids),
        "colours": list(COLOURS),
        "dice_per_colour": DICE_PER_COLOUR,
        "stage_dice_per_colour": STAGE_DICE_PER_COLOUR,
        "door_positions": list(DOOR_POSITIONS),
    }
