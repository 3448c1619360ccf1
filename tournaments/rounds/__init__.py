"""Rounds: pairing (the bridge to the engine and the background pairing jobs), publishing, editing, results and
their points (`scoring`)."""
