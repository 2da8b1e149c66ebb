"""Boards and pieces as SVG pictures, with python-chess's names (``chess.svg``).

``board(board, *, orientation, lastmove, check, arrows, fill, squares, size,
coordinates, colors, flipped, borders, style)`` draws any board (a
``bitboards.Board``, or anything with ``piece_at(square)``; None for an
empty one); ``piece(piece, size)`` one piece; ``Arrow`` an arrow or, from a
square to itself, a circle (PGN's ``[%cal Ga1h8]`` and ``[%csl Ga1]``).
The results are strings Jupyter shows as pictures.

The drawing is this package's own, as ``Board.svg()`` draws in Rust: the
pieces are the Unicode chess figurines (the black ones' outlines, filled
white or black), so their look follows the font; each piece is a group
with an ``id`` (``white-king``) and a ``class`` (``white king``) to style.

>>> import bitboards, bitboards.svg
>>> picture = bitboards.svg.board(bitboards.Board(), arrows=[bitboards.svg.Arrow(bitboards.E2, bitboards.E4)])
>>> picture.startswith("<svg") and "white king" in picture and "<line" in picture
True
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Tuple, Union
from xml.sax.saxutils import quoteattr

from . import FILE_NAMES, PIECE_NAMES, RANK_NAMES, SQUARE_NAMES, WHITE, parse_square

__all__ = ["SQUARE_SIZE", "MARGIN", "DEFAULT_COLORS", "Arrow", "SvgWrapper", "piece", "board"]

#: The side of a square, in the picture's units.
SQUARE_SIZE = 45
#: The margin for the coordinates, in the picture's units.
MARGIN = 20

#: The colours ``board`` uses; ``colors=`` replaces some (``#rrggbbaa`` for
#: a colour with opacity).
DEFAULT_COLORS: Dict[str, str] = {
    "square light": "#f0d9b5",
    "square dark": "#b58863",
    "square light lastmove": "#cdd26a",
    "square dark lastmove": "#aaa23b",
    "margin": "#212121",
    "coord": "#e5e5e5",
    "inner border": "#111111",
    "outer border": "#111111",
    "check": "#e8533f",
    "selected": "#15781b80",
    "arrow green": "#15781bcc",
    "arrow red": "#882020cc",
    "arrow yellow": "#e68f00cc",
    "arrow blue": "#00308833",
}

# Black's figurines (solid shapes) for both colours.
_FIGURINES = [None, "\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a"]
_ARROW_LETTERS = {"red": "R", "yellow": "Y", "blue": "B"}
_LETTER_COLORS = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}


class Arrow:
    """An arrow from ``tail`` to ``head`` (a circle when they are the same
    square), in ``color`` (``green``, ``red``, ``yellow``, ``blue`` or any
    SVG colour)."""

    tail: int
    head: int
    color: str

    def __init__(self, tail: int, head: int, *, color: str = "green") -> None:
        self.tail = tail
        self.head = head
        self.color = color

    def pgn(self) -> str:
        """As PGN comments write it: ``Ga1h8`` (an arrow), ``Ra1`` (a circle).
        Colours other than red, yellow and blue are written green."""
        letter = _ARROW_LETTERS.get(self.color, "G")
        if self.tail == self.head:
            return letter + SQUARE_NAMES[self.tail]
        return letter + SQUARE_NAMES[self.tail] + SQUARE_NAMES[self.head]

    @classmethod
    def from_pgn(cls, pgn: str) -> "Arrow":
        """Reads ``Ga1h8``, ``Ya1`` or ``a1h8`` (green). ValueError otherwise."""
        color = "green"
        if pgn[:1] in _LETTER_COLORS:
            color = _LETTER_COLORS[pgn[0]]
            pgn = pgn[1:]
        if len(pgn) not in (2, 4):
            raise ValueError(f"not an arrow: {pgn!r} (Ga1h8, Ra1)")
        tail = parse_square(pgn[:2])
        head = parse_square(pgn[2:]) if len(pgn) == 4 else tail
        return cls(tail, head, color=color)

    def __str__(self) -> str:
        return self.pgn()

    def __repr__(self) -> str:
        return f"Arrow({SQUARE_NAMES[self.tail].upper()}, {SQUARE_NAMES[self.head].upper()}, color={self.color!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arrow):
            return NotImplemented
        return (self.tail, self.head, self.color) == (other.tail, other.head, other.color)

    __hash__ = None  # type: ignore[assignment]  # mutable


class SvgWrapper(str):
    """An SVG picture: a string that Jupyter shows as the picture."""

    def _repr_svg_(self) -> "SvgWrapper":
        return self

    def _repr_html_(self) -> "SvgWrapper":
        return self


def _paint(color: str) -> str:
    """``fill``-style attributes' value and opacity from ``#rrggbb[aa]``."""
    if color.startswith("#") and len(color) == 9:
        return f'"{color[:7]}" opacity="{int(color[7:], 16) / 255:.3g}"'
    if color.startswith("#") and len(color) == 5:
        return f'"{color[:4]}" opacity="{int(color[4] * 2, 16) / 255:.3g}"'
    return quoteattr(color)


def _open(viewbox: int, size: Optional[int]) -> str:
    dimensions = f' width="{size}" height="{size}"' if size is not None else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="1.2" viewBox="0 0 {viewbox} {viewbox}"{dimensions}>'
    )


def _piece_id(color: bool, piece_type: int) -> str:
    return f"{'white' if color else 'black'}-{PIECE_NAMES[piece_type]}"


def _piece_group(color: bool, piece_type: int) -> str:
    fill, stroke = ("#ffffff", "#000000") if color else ("#000000", "#ffffff")
    name = f"{'white' if color else 'black'} {PIECE_NAMES[piece_type]}"
    return (
        f'<g id="{_piece_id(color, piece_type)}" class="{name}">'
        f'<text x="22.5" y="37" font-family="sans-serif" font-size="38" text-anchor="middle" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="0.9">{_FIGURINES[piece_type]}</text></g>'
    )


def piece(piece: Any, size: Optional[int] = None) -> str:
    """One piece (a ``Piece``, or anything with ``piece_type`` and ``color``)
    as a picture ``size`` units wide (unsized by default).

    >>> import bitboards, bitboards.svg
    >>> 'id="white-king"' in bitboards.svg.piece(bitboards.Piece.from_symbol("K"))
    True
    """
    return SvgWrapper(
        _open(SQUARE_SIZE, size) + _piece_group(bool(piece.color), int(piece.piece_type)) + "</svg>"
    )


def _arrow_parts(arrow: Union[Arrow, Tuple[int, int]]) -> Tuple[int, int, str]:
    if isinstance(arrow, Arrow):
        return arrow.tail, arrow.head, arrow.color
    tail, head = arrow
    return tail, head, "green"


def board(
    board: Any = None,
    *,
    orientation: bool = WHITE,
    lastmove: Any = None,
    check: Optional[int] = None,
    arrows: Iterable[Union[Arrow, Tuple[int, int]]] = (),
    fill: Optional[Dict[int, str]] = None,
    squares: Any = None,
    size: Optional[int] = None,
    coordinates: bool = True,
    colors: Optional[Dict[str, str]] = None,
    flipped: bool = False,
    borders: bool = False,
    style: Optional[str] = None,
) -> str:
    """A board as a picture.

    - ``board``: anything with ``piece_at(square)`` (a ``Board``); None for
      no pieces.
    - ``orientation``: the side at the bottom (``flipped=True`` turns it
      over); ``coordinates``: files and ranks in a margin; ``borders``: a
      line around the squares; ``size``: the width and height (unsized by
      default); ``style``: CSS put in the picture.
    - ``lastmove`` (a ``Move``): its squares coloured; ``check`` (a square):
      marked; ``fill``: ``{square: colour}``; ``squares`` (squares, as a
      mask or an iterable): crossed.
    - ``arrows``: ``Arrow``s or ``(tail, head)`` pairs, green; from a
      square to itself, a circle.
    - ``colors``: replaces some of ``DEFAULT_COLORS``.
    """
    palette = dict(DEFAULT_COLORS)
    palette.update(colors or {})
    white_below = bool(orientation) != bool(flipped)
    margin = MARGIN if coordinates else 0
    border = 1 if borders else 0
    inner = 8 * SQUARE_SIZE
    full = inner + 2 * (margin + border)
    origin = margin + border

    def corner(square: int) -> Tuple[int, int]:
        file, rank = square & 7, square >> 3
        column, row = (file, 7 - rank) if white_below else (7 - file, rank)
        return origin + column * SQUARE_SIZE, origin + row * SQUARE_SIZE

    def center(square: int) -> Tuple[float, float]:
        x, y = corner(square)
        return x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2

    parts: List[str] = [_open(full, size)]
    if style:
        parts.append(f"<style>{style}</style>")

    placed: List[Tuple[int, bool, int]] = []
    if board is not None:
        for square in range(64):
            found = board.piece_at(square)
            if found is not None:
                placed.append((square, bool(found.color), int(found.piece_type)))
    kinds = sorted({(color, kind) for _, color, kind in placed}, reverse=True)
    crossed: List[int] = []
    if squares is not None:
        mask = int(squares) if hasattr(squares, "__int__") else sum(1 << sq for sq in set(squares))
        crossed = [sq for sq in range(64) if mask >> sq & 1]
    parts.append("<defs>")
    parts.extend(_piece_group(color, kind) for color, kind in kinds)
    if crossed:
        parts.append(
            '<g id="xx" class="selected"><path d="M12 12L33 33M33 12L12 33" '
            f'stroke={_paint(palette["selected"])} stroke-width="4" stroke-linecap="round"/></g>'
        )
    parts.append("</defs>")

    if coordinates:
        parts.append(f'<rect x="0" y="0" width="{full}" height="{full}" fill={_paint(palette["margin"])}/>')
    if borders:
        parts.append(
            f'<rect x="{margin + 0.5}" y="{margin + 0.5}" width="{inner + 2 * border - 1}" '
            f'height="{inner + 2 * border - 1}" fill="none" stroke={_paint(palette["outer border"])}/>'
        )

    marked = set()
    if lastmove:
        marked = {lastmove.from_square, lastmove.to_square}
    fills = fill or {}
    for square in range(64):
        x, y = corner(square)
        shade = "light" if (square & 7) + (square >> 3) & 1 else "dark"
        key = f"square {shade} lastmove" if square in marked else f"square {shade}"
        name = SQUARE_NAMES[square]
        parts.append(
            f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}" '
            f'class="square {shade}{" lastmove" if square in marked else ""} {name}" fill={_paint(palette[key])}/>'
        )
        if square in fills:
            parts.append(
                f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}" '
                f'class="fill {name}" fill={_paint(fills[square])}/>'
            )
    if check is not None:
        x, y = corner(check)
        parts.append(
            f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}" class="check" '
            f'fill="none" stroke={_paint(palette["check"])} stroke-width="4"/>'
        )
    for square, color, kind in placed:
        x, y = corner(square)
        parts.append(
            f'<use href="#{_piece_id(color, kind)}" xlink:href="#{_piece_id(color, kind)}" '
            f'transform="translate({x}, {y})"/>'
        )
    for square in crossed:
        x, y = corner(square)
        parts.append(f'<use href="#xx" xlink:href="#xx" transform="translate({x}, {y})"/>')

    if coordinates:
        coord = _paint(palette["coord"])
        for index in range(8):
            file = index if white_below else 7 - index
            rank = 7 - index if white_below else index
            along = origin + index * SQUARE_SIZE + SQUARE_SIZE / 2
            for edge in (margin / 2, full - margin / 2):
                parts.append(
                    f'<text x="{along:g}" y="{edge + 4:g}" font-family="sans-serif" font-size="12" '
                    f'text-anchor="middle" class="coord" fill={coord}>{FILE_NAMES[file]}</text>'
                )
                parts.append(
                    f'<text x="{edge:g}" y="{along + 4:g}" font-family="sans-serif" font-size="12" '
                    f'text-anchor="middle" class="coord" fill={coord}>{RANK_NAMES[rank]}</text>'
                )

    for arrow in arrows:
        tail, head, arrow_color = _arrow_parts(arrow)
        paint = _paint(palette.get(f"arrow {arrow_color}", arrow_color))
        css = f"arrow {arrow_color}" if f"arrow {arrow_color}" in palette else "arrow"
        if tail == head:
            cx, cy = center(tail)
            parts.append(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{SQUARE_SIZE / 2 - 3:g}" fill="none" '
                f'stroke={paint} stroke-width="{SQUARE_SIZE * 0.1:g}" class="{css}"/>'
            )
            continue
        (x1, y1), (x2, y2) = center(tail), center(head)
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, dy / length
        head_length, head_width = SQUARE_SIZE * 0.75, SQUARE_SIZE * 0.45
        # The shaft stops where the head begins.
        bx, by = x2 - ux * head_length, y2 - uy * head_length
        parts.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{bx:g}" y2="{by:g}" stroke={paint} '
            f'stroke-width="{SQUARE_SIZE * 0.2:g}" stroke-linecap="butt" class="{css}"/>'
        )
        px, py = -uy * head_width / 2, ux * head_width / 2
        parts.append(
            f'<polygon points="{x2:g},{y2:g} {bx + px:g},{by + py:g} {bx - px:g},{by - py:g}" '
            f'fill={paint} class="{css}"/>'
        )

    parts.append("</svg>")
    return SvgWrapper("".join(parts))
