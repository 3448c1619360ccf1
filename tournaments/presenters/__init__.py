"""Presenters: what the pages show, as plain rows for the templates (numbers formatted in the active locale,
URLs built, codes turned into words). Views call them; they read through ``selectors`` and ``standings`` and
never write.

* ``labels``: the words for the codes the domain returns (results, round kinds, tiebreaks, order reasons);
* ``rounds``: pairings, byes, absences, each entry's card, the move viewer of a recorded game;
* ``standings``: the standings table, tie groups, readings in force, cross table.
"""
