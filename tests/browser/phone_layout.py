"""What the browser tests measure on a 390 px phone: the page not wider than the screen, table headers that keep
their words whole, inputs that show their whole value, fields typed into at 16 px or more."""

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
