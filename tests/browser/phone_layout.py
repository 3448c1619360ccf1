"""What the browser tests measure on a 390 px phone: the page not wider than the screen, table headers that keep
their words whole, inputs that show their whole value, fields typed into at 16 px or more, the shadows that say a
table scrolls sideways."""

import struct
import zlib

# Every visible header cell of the page's main content whose words do not each sit on one line: each word is
# measured with a Range over its characters, and boxes on more than one line mean the browser broke it (a letter
# per line, or at a hyphen). Wrapping between words is fine.
BROKEN_HEADERS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll('main th')) {
    if (!th.getClientRects().length) continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(th.textContent.trim().replace(/\\s+/g, ' ') + ' [' + m[0] + ']');
      }
    }
  }
  return broken;
}"""

# Visible text inputs of the main content too narrow for their value (“2-” shown for “2-0”).
CUT_INPUTS = """() => Array.from(document.querySelectorAll('main input'))
  .filter(i => i.getClientRects().length && i.value && i.scrollWidth > i.clientWidth)
  .map(i => (i.name || i.id) + '=' + i.value)"""

# The fields of the whole page (the header's language choice too) that a keyboard types or picks into, whose text
# is under 16 px: iOS Safari zooms the page in whenever one is tapped. Checkboxes, radios and buttons are not typed
# into and do not zoom it.
SMALL_FIELDS = """() => Array.from(document.querySelectorAll('input, select, textarea'))
  .filter(f => !['hidden', 'checkbox', 'radio', 'submit', 'button', 'reset', 'image'].includes(f.type))
  .map(f => [(f.name || f.id || f.tagName.toLowerCase()), getComputedStyle(f).fontSize])
  .filter(([_name, size]) => parseFloat(size) < 16).map(([name, size]) => name + ' ' + size)"""

# The elements that stick out to the right of the screen (to say what widens a page that does not fit).
WIDEST = (
    "Array.from(document.querySelectorAll('main *')).filter(e => e.getBoundingClientRect().right > "
    "document.scrollingElement.clientWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + "
    "Math.round(e.getBoundingClientRect().right) + ' ' + e.textContent.trim().slice(0, 40))"
)


def fits(page):
    """No sideways scroll of the page: the document is not wider than the viewport."""
    return page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")


def broken_headers(page):
    return page.evaluate(BROKEN_HEADERS)


def cut_inputs(page):
    return page.evaluate(CUT_INPUTS)


def small_fields(page):
    return page.evaluate(SMALL_FIELDS)


def png_rows(png):
    """The pixel rows of an 8-bit RGB or RGBA PNG without interlace (what chromium's screenshots are)."""
    pos, idat = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        data = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", data)
            assert depth == 8 and colour in (2, 6) and not interlace, (depth, colour, interlace)
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for i in range(height):
        kind, line = raw[i * (stride + 1)], bytearray(raw[i * (stride + 1) + 1 : (i + 1) * (stride + 1)])
        for j in range(stride):
            a, b, c = (line[j - bpp] if j >= bpp else 0), prev[j], (prev[j - bpp] if j >= bpp else 0)
            if kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                a = a if pa <= pb and pa <= pc else b if pb <= pc else c
            line[j] = (line[j] + (0, a, b, (a + b) // 2, a)[kind]) & 255
        rows.append(line)
        prev = line
    return rows


def edge_shadows(page, box):
    """Whether the scroll shadows (site.css) show at the (left, right) edge of a table's sideways scroll box: some
    pixel of the box's outermost 8 px at that edge is darker by 16 levels or more than with the box's background
    images off (chromium dithers gradients by a level or two). The top of the box only (its header row and the first
    rows), away from a phone's passing scrollbar."""
    x, y, width, height = box.evaluate(
        "b => { const r = b.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }"
    )
    clips = [{"x": left, "y": y, "width": 8, "height": min(height - 20, 400)} for left in (x, x + width - 8)]

    def strips():
        return [png_rows(page.screenshot(full_page=True, clip=clip)) for clip in clips]

    shown = strips()
    box.evaluate("b => { b.style.backgroundImage = 'none'; }")
    plain = strips()
    box.evaluate("b => { b.style.backgroundImage = ''; }")
    return tuple(
        any(p - s >= 16 for s_row, p_row in zip(s_rows, p_rows, strict=True) for s, p in zip(s_row, p_row, strict=True))
        for s_rows, p_rows in zip(shown, plain, strict=True)
    )


def scroll_box_to(box, where):
    """Scroll a box sideways to its "start", "middle" or "end"."""
    box.evaluate(
        "(b, where) => { const max = b.scrollWidth - b.clientWidth;"
        " b.scrollLeft = {start: 0, middle: Math.round(max / 2), end: max}[where]; }",
        where,
    )


def check_scroll_shadows(page, box, name, shot, label):
    """A table that scrolls sideways in ``box``: a shadow at the right edge at first, at both edges halfway, at the
    left edge at the end (screenshots at the start and the end, named from ``label``); none on paper."""
    assert box.evaluate("b => b.scrollWidth > b.clientWidth"), name
    assert edge_shadows(page, box) == (False, True), name
    box.evaluate("b => b.scrollIntoView()")
    shot(page, label, full_page=False)
    scroll_box_to(box, "middle")
    assert edge_shadows(page, box) == (True, True), name
    scroll_box_to(box, "end")
    assert edge_shadows(page, box) == (True, False), name
    shot(page, f"{label}-end", full_page=False)
    page.emulate_media(media="print")
    assert box.evaluate("b => getComputedStyle(b).backgroundImage") == "none", name
    page.emulate_media(media="screen")
