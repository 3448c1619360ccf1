"""Harnesses shared by the tests and the benchmarks (never imported by the app).

- ``builders``: a published tournament built quickly through the ORM (bulk inserts).
- ``server``: real gunicorn app servers (production settings, collectstatic, a shared Redis) on free ports.
- ``vectors``: the pairing reference cases carried in ``tests/data/pairing-vectors.tar.xz``.
"""
