"""Homologation (docs/domain.md section 7), in two parts:

* :mod:`.conditions`: the conditions of the regulation, each met or not with the reason (reads only; the
  standings ask it whether the qualification spots are awarded);
* :mod:`.report`: the full report (conditions, deadline, standings and spots) behind the staff page, the
  ``homologation_check`` command and the workbook.

Recording that the workbook was exported is a write: :mod:`tournaments.homologation.services`.
"""
