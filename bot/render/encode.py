"""PNG encoding tuned for speed and size.

The board is flat colours and anti-aliased text, so a 256-colour palette (fast octree,
no dithering) loses nothing visible, makes the file about three times smaller, and
lets zlib skip PNG's per-row filter search, which dominates an RGB encode. The live
board brings its palette (``bot.render.live.palette``): mapping to a given palette is
four times faster than working one out.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 3


def encode_png(image: Image.Image, palette: bool | Image.Image = True) -> bytes:
    """``image`` as PNG bytes, in 256 colours of its own, or of ``palette`` if it is a
    palette image (mode ``P``); ``palette=False`` keeps full RGB (slower, larger)."""
    out = io.BytesIO()
    if isinstance(palette, Image.Image):
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif palette:
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    image.save(out, "PNG", optimize=False, compress_level=COMPRESS_LEVEL)
    return out.getvalue()
