"""Enumerations with a label for each member, for the domain and the app alike (no Django import).

A setting the pure code reads and a model field stores (a reading of the regulation, the bye's value, the round
format) is ONE enum: its members and values are defined here, in the domain, beside the code that reads them, and
the models take ``Enum.choices`` from the same class (``tournaments/models/choices.py`` re-exports it). The API is
Django's ``TextChoices`` one (``.values``, ``.labels``, ``.choices``, ``member.label``), so a model field, a form and a
report use it unchanged.

Labels are English message ids marked with :func:`gettext_noop` (``makemessages`` collects them); the app installs
its translation with :func:`use_translation` when the models load, so ``member.label`` is in the active language
there, and the plain message id in pure code and its tests.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import EnumType, StrEnum
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks ``message`` as a message id for ``makemessages``; translated when read (:attr:`LabelledEnum.label`)."""
    return message


def _untranslated(message: str) -> Any:
    return message


_translate: Callable[[str], Any] = _untranslated


def use_translation(translate: Callable[[str], Any]) -> None:
    """The app's translation of labels (``gettext_lazy``), installed once by ``tournaments.models.choices``."""
    global _translate
    _translate = translate


class _LabelledType(EnumType):
    def _members(cls) -> list[LabelledEnum]:
        # in definition order, without aliases (what iterating the enum gives)
        members: dict[str, LabelledEnum] = dict(cls.__members__)
        return [member for name, member in members.items() if member.name == name]

    @property
    def values(cls) -> list[str]:
        return [member.value for member in cls._members()]

    @property
    def labels(cls) -> list[Any]:
        return [member.label for member in cls._members()]

    @property
    def choices(cls) -> list[tuple[str, Any]]:
        return [(member.value, member.label) for member in cls._members()]

    @property
    def names(cls) -> list[str]:
        return [member.name for member in cls._members()]


class LabelledEnum(StrEnum, metaclass=_LabelledType):
    """A ``StrEnum`` whose members are written ``NAME = "value", gettext_noop("Label")``."""

    _value_: str
    _msgid: str

    def __new__(cls, value: str, label: str = "") -> LabelledEnum:
        member = str.__new__(cls, value)
        member._value_ = value
        member._msgid = label or value
        return member

    @property
    def label(self) -> Any:
        """The label in the active language (the message id outside the app)."""
        return _translate(self._msgid)
