"""The national registry of players: rating lists, duplicates, edits and their history."""
