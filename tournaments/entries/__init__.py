"""Entries of a tournament: entering players, late entries, withdrawals, announced absences, ratings kept."""
