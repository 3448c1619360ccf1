"""Writes. Every public function here owns its transaction: it either does all of its work or none of it.

Lock order, when several rows are locked: tournament -> round -> board.
"""

from tournaments.services.errors import ConflictError, ServiceError

__all__ = ["ConflictError", "ServiceError"]
