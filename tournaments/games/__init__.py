"""Recorded games (PDN): importing, exporting and showing the moves of a tournament's games."""
