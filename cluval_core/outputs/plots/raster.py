"""Many points drawn as one picture: a PNG in the plot's data coordinates.

A browser draws thousands of vector markers slowly (SVG), or through WebGL, whose every new
chart costs a graphics context (hundreds of milliseconds where the browser renders in software).
One image of the points is drawn at once at any n; the overlays (centroids, labels) stay vector
traces above it, and hover is left to them.

>>> import numpy as np
>>> picture = points_image(np.array([0.0, 1.0]), np.array([0.0, 2.0]), [0, 1], ["#ff0000", "#0000ff"], diameter=5)
>>> picture["xref"], picture["layer"], picture["source"][:22]
('x', 'below', 'data:image/png;base64,')
"""

from __future__ import annotations

import base64
import io

import numpy as np
from PIL import Image
from plotly.colors import hex_to_rgb

from ...core.validation import CluvalError

__all__ = ["points_image", "image_extent", "IMAGE_PIXELS"]

IMAGE_PIXELS = 1200  # the picture's longer side: about twice a half-screen chart's width, sharp on wide screens
SCREEN_PIXELS = 540  # the width in screen pixels a `diameter` refers to (a half-screen chart's plot at 1920 px)


def points_image(x: np.ndarray, y: np.ndarray, codes: np.ndarray, colours, *, diameter: float,
                 opacity: float = 0.7, pixels: int = IMAGE_PIXELS) -> dict:
    """A plotly layout image (``fig.add_layout_image(**picture)``) of the points (`x`, `y`), each a
    disc of colour ``colours[codes[i]]`` (``#rrggbb``; at most 255 colours) and `diameter` screen
    pixels on a chart about :data:`SCREEN_PIXELS` wide, later points above earlier ones (as
    markers are drawn). Points with a missing coordinate are not drawn.

    The picture spans the points' extent (plus the discs' radius) in data coordinates with square
    pixels, so that it stays in place under zoom, pan and an equal aspect ratio; its longer side
    has `pixels` pixels. Plotly's autorange does not see images: give the chart a trace over
    the same extent (:func:`image_extent`).
    """
    x, y, codes, colours = _checked(x, y, codes, colours, diameter, opacity, pixels)
    drawn = np.flatnonzero(np.isfinite(x) & np.isfinite(y))
    x, y, codes = x[drawn], y[drawn], codes[drawn]
    x0, x1, y0, y1 = _extent(x, y)
    pixels = int(pixels)
    scale = (pixels - 1) / max(x1 - x0, y1 - y0)  # pixels per data unit
    radius = diameter * pixels / SCREEN_PIXELS / 2
    pad = int(np.ceil(radius)) + 1
    width, height = int(round((x1 - x0) * scale)) + 1 + 2 * pad, int(round((y1 - y0) * scale)) + 1 + 2 * pad
    px = np.rint((x - x0) * scale).astype(np.intp) + pad
    py = np.rint((y1 - y) * scale).astype(np.intp) + pad  # image rows run downwards
    reach = int(np.floor(radius))
    dx, dy = np.meshgrid(np.arange(-reach, reach + 1), np.arange(-reach, reach + 1))
    inside = dx**2 + dy**2 <= max(radius, 0.5) ** 2
    offsets = (dy[inside] * width + dx[inside]).astype(np.intp)
    top = np.full(width * height, -1, dtype=np.intp)  # the last point covering each pixel
    np.maximum.at(top, (py * width + px)[:, None] + offsets[None, :], np.arange(len(x))[:, None])
    index = np.zeros(width * height, dtype=np.uint8)  # 0: transparent, 1 + j: colours[j]
    covered = top >= 0
    index[covered] = codes[top[covered]] + 1
    image = Image.fromarray(index.reshape(height, width), "P")
    image.putpalette([0, 0, 0] + [v for colour in colours for v in hex_to_rgb(colour)])
    buffer = io.BytesIO()  # a palette image: one byte a pixel, the palette's alpha in its transparency chunk
    image.save(buffer, "PNG", compress_level=6, transparency=bytes([0] + [round(255 * opacity)] * len(colours)))
    step = 1 / scale
    return dict(source="data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"),
                xref="x", yref="y", x=x0 - (pad + 0.5) * step, y=y1 + (pad + 0.5) * step,
                sizex=width * step, sizey=height * step, xanchor="left", yanchor="top", sizing="stretch",
                layer="below")


MAX_DIAMETER = 100  # screen pixels a disc may span
MAX_PIXELS = 8192  # the picture's longer side


def _checked(x, y, codes, colours, diameter, opacity, pixels):
    """The arguments of :func:`points_image` as arrays, or a CluvalError saying what is wrong."""
    x, y, codes = (np.asarray(v) for v in (x, y, codes))
    if not (x.ndim == y.ndim == codes.ndim == 1 and len(x) == len(y) == len(codes)):
        raise CluvalError(f"x, y and codes must be 1-D and of one length, got shapes {x.shape}, {y.shape} and "
                          f"{codes.shape}")
    if x.dtype.kind not in "iuf" or y.dtype.kind not in "iuf":
        raise CluvalError("x and y must be numbers")
    colours = list(colours)
    if not 1 <= len(colours) <= 255 or not all(isinstance(c, str) and len(c) == 7 and c[0] == "#" and
                                                all(h in "0123456789abcdefABCDEF" for h in c[1:]) for c in colours):
        raise CluvalError(f"colours must be at least 1 and at most 255 colours written #rrggbb, got {len(colours)}: "
                          f"{colours[:3]!r}…")
    if len(codes) and (codes.dtype.kind not in "iu" or codes.min() < 0 or codes.max() >= len(colours)):
        raise CluvalError(f"codes must be whole numbers from 0 to {len(colours) - 1} (one of the colours)")
    for name, value, low, high in (("diameter", diameter, 0, MAX_DIAMETER), ("opacity", opacity, 0, 1),
                                   ("pixels", pixels, 2, MAX_PIXELS)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                or not low < value <= high or (name == "pixels" and value != int(value)):
            raise CluvalError(f"{name} must be a number above {low} and at most {high}, got {value!r}")
    return x.astype(np.float64), y.astype(np.float64), codes.astype(np.intp), colours


def image_extent(picture: dict) -> tuple[list[float], list[float]]:
    """The x and y of two corners of `picture`: an invisible trace through them lets the axes'
    autorange include the whole image."""
    return ([picture["x"], picture["x"] + picture["sizex"]], [picture["y"] - picture["sizey"], picture["y"]])


def _extent(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """The points' bounding box; a unit square around them when they all coincide (or there are none)."""
    if not len(x):
        return 0.0, 1.0, 0.0, 1.0
    x0, x1, y0, y1 = float(x.min()), float(x.max()), float(y.min()), float(y.max())
    if x1 == x0 and y1 == y0:
        return x0 - 0.5, x1 + 0.5, y0 - 0.5, y1 + 0.5
    return x0, x1, y0, y1
