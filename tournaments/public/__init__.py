"""The public pages (no login): tournament, pairings, results, standings, players, the venue screen, the printed
pages, and their page cache."""
