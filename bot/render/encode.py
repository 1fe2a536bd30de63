"""PNG encoding tuned for speed and size.

The board is flat colours and anti-aliased text, so a 256-colour palette (fast octree,
no dithering) loses nothing visible, makes the file about three times smaller, and
lets zlib skip PNG's per-row filter search, which dominates an RGB encode. The live
board brings its palette (``bot.render.live.palette``): mapping to a given palette is
four times faster than working one out.

A palette image is written here rather than by Pillow: its rows unfiltered (filter
"none", as the PNG specification advises for palette images) and deflated by ISA-L
(``isal``), which makes a file of the same size as zlib's fast levels about eight times
faster: a third of a millisecond for the live board instead of three. The pixels are
Pillow's (``tests/bot/render`` decodes the file and compares).
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Sequence

from isal import isal_zlib
from PIL import Image

COMPRESS_LEVEL = 3  # Pillow's zlib level, for the full RGB image (``palette=False``)
ISAL_LEVEL = 2  # ISA-L's levels go 0-3; 2 is both the quickest and the smallest here
SIGNATURE = b"\x89PNG\r\n\x1a\n"
PALETTE_SIZE = 256
RGB = tuple[int, int, int]


def encode_png(
    image: Image.Image, palette: bool | Image.Image = True, keep: Sequence[RGB] = ()
) -> bytes:
    """``image`` as PNG bytes, in 256 colours of its own (with the colours ``keep`` exactly
    among them), or of ``palette`` if it is a palette image (mode ``P``); ``palette=False``
    keeps full RGB (slower, larger)."""
    if isinstance(palette, Image.Image):
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif palette:
        image = image.quantize(palette=palette_of(image, keep), dither=Image.Dither.NONE)
    else:
        out = io.BytesIO()
        image.save(out, "PNG", optimize=False, compress_level=COMPRESS_LEVEL)
        return out.getvalue()
    return palette_png(image)


def palette_of(image: Image.Image, keep: Sequence[RGB] = ()) -> Image.Image:
    """A palette of 256 colours for ``image``: the colours ``keep``, exactly, then its own
    (a fast octree of the rest).

    Pillow maps a pixel through a cache of 64 x 64 x 64 slots, each slot taking the entry
    nearest to its lowest corner (``ImagingPaletteCacheUpdate``): an octree colour near a
    kept one would take the kept colour's pixels (white became 253,252,253). So an octree
    colour that is at least as near to the corner of a kept colour's slot as the kept
    colour itself is left out, and the kept colours come first (a tie goes to the first
    entry): a pixel drawn in a kept colour stays that colour in the file."""
    kept = list(dict.fromkeys(keep))[:PALETTE_SIZE]
    own = image.quantize(
        PALETTE_SIZE - len(kept), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    flat = (own.getpalette("RGB") or [])[: 3 * (PALETTE_SIZE - len(kept))]
    corners = [(_corner(c), _distance(c, _corner(c))) for c in kept]
    others = [
        rgb
        for rgb in ((flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3))
        if all(_distance(rgb, corner) > reach for corner, reach in corners)
    ]
    entries = [*kept, *others] or [(0, 0, 0)]
    entries += [entries[0]] * (PALETTE_SIZE - len(entries))  # no stray black entries
    out = Image.new("P", (1, 1))
    out.putpalette([c for rgb in entries for c in rgb])
    return out


def _corner(rgb: RGB) -> RGB:
    """The lowest corner of the palette cache's slot of ``rgb`` (6 bits a channel)."""
    return (rgb[0] & ~3, rgb[1] & ~3, rgb[2] & ~3)


def _distance(a: RGB, b: RGB) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def palette_png(image: Image.Image) -> bytes:
    """A palette image (mode ``P``, no transparency) as PNG bytes: 8 bits a pixel."""
    assert image.mode == "P"
    width, height = image.size
    colours = image.getpalette("RGB") or []
    # Each row starts with its filter type, 0 ("none"): the image one pixel wider, moved
    # right by one on a row of zeros, is the filtered data as it is stored.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours)),
            _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), ISAL_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
