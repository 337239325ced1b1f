#!/usr/bin/python3
"""Draws a terminal capture (`tmux capture-pane -p -e`: text with SGR colour codes) as a PNG.

    ansi-to-png.py CAPTURE OUTPUT.png [--columns N] [--rows N] [--title TEXT]

Each cell is a DejaVu Sans Mono glyph on its background, in the colours of the
Tango palette GNOME Terminal uses; the 256-colour cube and true colour are
drawn as given. Only SGR is understood (tmux emits nothing else with -e).
"""
import argparse
import re
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 15
FOREGROUND = (0xD3, 0xD7, 0xCF)
BACKGROUND = (0x1E, 0x1E, 0x1E)
TANGO = [
    (0x2E, 0x34, 0x36), (0xCC, 0x00, 0x00), (0x4E, 0x9A, 0x06), (0xC4, 0xA0, 0x00),
    (0x34, 0x65, 0xA4), (0x75, 0x50, 0x7B), (0x06, 0x98, 0x9A), (0xD3, 0xD7, 0xCF),
    (0x55, 0x57, 0x53), (0xEF, 0x29, 0x29), (0x8A, 0xE2, 0x34), (0xFC, 0xE9, 0x4F),
    (0x72, 0x9F, 0xCF), (0xAD, 0x7F, 0xA8), (0x34, 0xE2, 0xE2), (0xEE, 0xEE, 0xEC),
]
SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def palette(index):
    if index < 16:
        return TANGO[index]
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[index // 36], steps[(index // 6) % 6], steps[index % 6])
    level = 8 + (index - 232) * 10
    return (level, level, level)


class Pen:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = False
        self.reverse = False
        self.dim = False

    def apply(self, codes):
        codes = [int(c) if c else 0 for c in re.split(r"[;:]", codes)] if codes else [0]
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                self.reset()
            elif code == 1:
                self.bold = True
            elif code == 2:
                self.dim = True
            elif code == 7:
                self.reverse = True
            elif code == 22:
                self.bold = self.dim = False
            elif code == 27:
                self.reverse = False
            elif 30 <= code <= 37:
                self.fg = TANGO[code - 30]
            elif 90 <= code <= 97:
                self.fg = TANGO[code - 90 + 8]
            elif 40 <= code <= 47:
                self.bg = TANGO[code - 40]
            elif 100 <= code <= 107:
                self.bg = TANGO[code - 100 + 8]
            elif code == 39:
                self.fg = None
            elif code == 49:
                self.bg = None
            elif code in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    colour = palette(codes[i + 2])
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    colour = tuple(codes[i + 2:i + 5])
                    i += 4
                else:
                    colour = None
                if code == 38:
                    self.fg = colour
                else:
                    self.bg = colour
            i += 1

    def colours(self):
        fg = self.fg or (TANGO[15] if self.bold and self.fg is None else FOREGROUND)
        bg = self.bg or BACKGROUND
        if self.dim:
            fg = tuple((f + b) // 2 for f, b in zip(fg, bg))
        return (bg, fg) if self.reverse else (fg, bg)


def cells(text):
    """Yields rows of (character, fg, bg, bold)."""
    pen = Pen()
    for line in text.split("\n"):
        row = []
        position = 0
        for match in SGR.finditer(line):
            for char in line[position:match.start()]:
                row.append((char, *pen.colours(), pen.bold))
            pen.apply(match.group(1))
            position = match.end()
        for char in line[position:]:
            row.append((char, *pen.colours(), pen.bold))
        yield row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("capture")
    parser.add_argument("output")
    parser.add_argument("--columns", type=int, default=100)
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--title", default="")
    arguments = parser.parse_args()

    with open(arguments.capture, encoding="utf-8", errors="replace") as handle:
        rows = list(cells(handle.read().rstrip("\n")))[:arguments.rows]
    regular = ImageFont.truetype(FONT, SIZE)
    bold = ImageFont.truetype(FONT_BOLD, SIZE)
    left, top, right, bottom = regular.getbbox("M")
    width = round(regular.getlength("M"))
    height = round(SIZE * 1.35)
    margin = 14
    bar = 34 if arguments.title else 0
    image = Image.new("RGB", (arguments.columns * width + 2 * margin,
                              arguments.rows * height + 2 * margin + bar), BACKGROUND)
    draw = ImageDraw.Draw(image)
    if bar:
        draw.rectangle([0, 0, image.width, bar], fill=(0x30, 0x30, 0x30))
        title_font = ImageFont.truetype(FONT_BOLD, 13)
        draw.text((image.width / 2, bar / 2), arguments.title, font=title_font,
                  fill=(0xEE, 0xEE, 0xEC), anchor="mm")
    for y, row in enumerate(rows):
        for x, (char, fg, bg, is_bold) in enumerate(row[:arguments.columns]):
            origin = (margin + x * width, margin + bar + y * height)
            if bg != BACKGROUND:
                draw.rectangle([origin[0], origin[1], origin[0] + width - 1, origin[1] + height - 1], fill=bg)
            if not char.isspace():
                draw.text((origin[0], origin[1] + (height - SIZE) // 2), char,
                          font=bold if is_bold else regular, fill=fg)
    image.save(arguments.output)


if __name__ == "__main__":
    sys.exit(main())
