"""Debian's Chromium as the browser tests and the walkthrough bench start it (Playwright cannot download browsers
here): where it is (``CHROMIUM_PATH`` overrides it) and the flags that keep it off the network and the GPU."""

import os

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
