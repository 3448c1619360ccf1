"""Standings: read from the database, computed by the pure domain, presented for the pages; the regulation's
readings in force."""
