"""Run a benchmark in a database of its own (a test database created and destroyed around it), so a benchmark
never clobbers the development database or a test run's ``test_`` database."""

import os
from pathlib import Path

from django.db import connection
from django.test.utils import setup_test_environment


def run_in_throwaway_db(main, *args, name="bench"):
    setup_test_environment()
    if connection.vendor != "sqlite":
        connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_{Path(name).stem}_{os.getpid()}"
    old = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        return main(*args)
    finally:
        connection.creation.destroy_test_db(old, verbosity=0)
