"""Creating a tournament and its settings, the opening tables (tablita) and the demo."""
