"""Draw the app's icons (static/offline/icon-*.png): a white heart on the app's red.

    .venv/bin/python scripts/make_icons.py

Standard library only (zlib): each pixel is inside or outside the heart curve
(x² + y² − 1)³ − x²y³ ≤ 0, averaged over 4×4 samples for smooth edges. The
maskable icon keeps the heart inside the central 80% circle that launchers may
crop to; the plain ones fill more of a rounded square.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

RED = (0x7A, 0x17, 0x12)
WHITE = (0xFF, 0xFF, 0xFF)
OUT = Path(__file__).resolve().parent.parent / "static" / "offline"
SAMPLES = 4


def in_heart(x: float, y: float) -> bool:
    return (x * x + y * y - 1) ** 3 - x * x * y**3 <= 0


def in_rounded_square(u: float, v: float, radius: float = 0.18) -> bool:
    """(u, v) in [0, 1]²: inside a square with rounded corners."""
    dx = max(radius - u, 0, u - (1 - radius))
    dy = max(radius - v, 0, v - (1 - radius))
    return dx * dx + dy * dy <= radius * radius


def pixel(px: int, py: int, size: int, heart_scale: float, maskable: bool) -> tuple[int, ...]:
    heart = ground = 0
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            u = (px + (sx + 0.5) / SAMPLES) / size
            v = (py + (sy + 0.5) / SAMPLES) / size
            if not maskable and not in_rounded_square(u, v):
                continue
            ground += 1
            # The heart curve spans x in [-1.14, 1.14], y in [-1, 1.25]: centre it.
            x = (u - 0.5) * 2.6 / heart_scale
            y = (0.5 - v) * 2.6 / heart_scale + 0.12
            heart += in_heart(x, y)
    n = SAMPLES * SAMPLES
    alpha = round(255 * ground / n)
    if ground == 0:
        return (0, 0, 0, 0)
    mix = heart / ground
    rgb = tuple(round(r * (1 - mix) + w * mix) for r, w in zip(RED, WHITE, strict=True))
    return (*rgb, alpha)


def png(size: int, heart_scale: float, maskable: bool) -> bytes:
    rows = bytearray()
    for py in range(size):
        rows.append(0)
        for px in range(size):
            rows.extend(pixel(px, py, size, heart_scale, maskable))

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon-192.png").write_bytes(png(192, 0.78, maskable=False))
    (OUT / "icon-512.png").write_bytes(png(512, 0.78, maskable=False))
    (OUT / "icon-maskable-512.png").write_bytes(png(512, 0.55, maskable=True))


if __name__ == "__main__":
    main()
