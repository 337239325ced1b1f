#!/usr/bin/python3
"""Saves an X display's root window as a PNG, cut to what is drawn on it.

    x11-capture.py OUTPUT.png [--margin N] [--taller-than PIXELS] [--timeout SECONDS]

DISPLAY names the display (scripts/screenshots.sh's Xvfb). The root window of an Xvfb with
no window manager and no desktop is black: the picture keeps the box around everything
else, with a margin of that black, drawn in GNOME Shell's dark grey instead. With
--taller-than it waits until what is drawn is taller than that and has stopped changing
(KRunner's window grows as its results arrive), and fails after --timeout.
"""
import argparse
import sys
import time

import gi

gi.require_version("Gdk", "3.0")
from gi.repository import Gdk  # noqa: E402
from PIL import Image  # noqa: E402

BACKDROP = (0x24, 0x24, 0x24)


def capture(root):
    """The root window's picture, and the box around what is not black (None: nothing)."""
    pixbuf = Gdk.pixbuf_get_from_window(root, 0, 0, root.get_width(), root.get_height())
    mode = "RGBA" if pixbuf.get_has_alpha() else "RGB"
    image = Image.frombytes(mode, (pixbuf.get_width(), pixbuf.get_height()), pixbuf.get_pixels(),
                            "raw", mode, pixbuf.get_rowstride()).convert("RGB")
    return image, image.getbbox()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--margin", type=int, default=32)
    parser.add_argument("--taller-than", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20)
    arguments = parser.parse_args()

    root = Gdk.get_default_root_window()
    if root is None:
        print("x11-capture.py: no display (DISPLAY is not set or cannot be opened)", file=sys.stderr)
        return 1
    deadline = time.monotonic() + arguments.timeout
    previous = None
    unchanged = 0
    while True:
        image, box = capture(root)
        unchanged = unchanged + 1 if box is not None and box == previous else 0
        # Unchanged for a second: KRunner's runners have answered.
        settled = unchanged >= 2 and box[3] - box[1] > arguments.taller_than
        if settled or (box is not None and arguments.taller_than == 0):
            break
        if time.monotonic() > deadline:
            height = 0 if box is None else box[3] - box[1]
            print(f"x11-capture.py: after {arguments.timeout:g} s what is drawn is {height} pixels tall, "
                  f"not more than {arguments.taller_than}", file=sys.stderr)
            return 1
        previous = box
        time.sleep(0.5)
    cut = image.crop(box)
    framed = Image.new("RGB", (cut.width + 2 * arguments.margin, cut.height + 2 * arguments.margin), BACKDROP)
    framed.paste(cut, (arguments.margin, arguments.margin))
    framed.save(arguments.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
