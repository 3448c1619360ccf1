"""The warnings of an import, by what they change (issue 38.2): what changes points first, then pairings, then
rights (categories, spots), then what changes nothing (data kept in another form, lines no one uses). Every warning
is shown: the page folds each group, the command prints them all, group by group.

A warning is a ``str`` (the importers' lists stay lists of text, pt-BR, one line each); :class:`Notice` is a
``str`` that also says its consequence. A plain ``str`` changes nothing."""

from __future__ import annotations

from collections.abc import Iterable

POINTS, PAIRINGS, RIGHTS, NOTHING = range(4)

# pt-BR: the heading of each group, with its count
_GROUPS = {
    POINTS: ("aviso que muda pontos", "avisos que mudam pontos"),
    PAIRINGS: ("aviso que muda emparceiramentos", "avisos que mudam emparceiramentos"),
    RIGHTS: ("aviso que muda direitos (categorias, vagas)", "avisos que mudam direitos (categorias, vagas)"),
    NOTHING: (
        "aviso que não muda nada (dado guardado de outra forma, linha ignorada)",
        "avisos que não mudam nada (dados guardados de outra forma, linhas ignoradas)",
    ),
}


class Notice(str):
    """A warning and what it changes (:data:`POINTS`, :data:`PAIRINGS`, :data:`RIGHTS` or :data:`NOTHING`)."""

    consequence: int

    def __new__(cls, text: str, consequence: int = NOTHING) -> Notice:
        notice = super().__new__(cls, text)
        notice.consequence = consequence
        return notice


def points(text: str) -> Notice:
    return Notice(text, POINTS)


def pairings(text: str) -> Notice:
    return Notice(text, PAIRINGS)


def rights(text: str) -> Notice:
    return Notice(text, RIGHTS)


def consequence_of(warning: str) -> int:
    return getattr(warning, "consequence", NOTHING)


def by_consequence(warnings: Iterable[str]) -> list[str]:
    """The warnings, what changes most first; in a group, in the order they were found (line by line)."""
    return sorted(warnings, key=consequence_of)


def grouped(warnings: Iterable[str]) -> list[tuple[int, str, list[str]]]:
    """(consequence, heading with the count, warnings) of each group that has any, what changes most first."""
    groups: dict[int, list[str]] = {}
    for w in by_consequence(warnings):
        groups.setdefault(consequence_of(w), []).append(w)
    return [(c, f"{len(ws)} {_GROUPS[c][len(ws) != 1]}", ws) for c, ws in groups.items()]


def changes_something(consequence: int) -> bool:
    return consequence != NOTHING
