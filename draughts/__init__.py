"""Rules of play for Brazilian (64 squares) and international (100 squares) draughts. Pure Python, no Django."""
