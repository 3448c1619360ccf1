"""Portuguese agrees with the player's sex: "Maria foi inscrita", "João foi inscrito" (issue 28.14).

A sentence about one player is two messages: the plain one (masculine in Portuguese, also used when the sex is not
known, as for a player imported from a file that does not say) and the same English text under the context
"female", whose Portuguese is feminine. ``by_sex`` picks one; templates use ``{% blocktranslate context "female" %}``
on the player's sex."""

from decimal import Decimal

FEMALE = "F"


def by_sex(sex: str | None, masculine: str, feminine: str) -> str:
    """``feminine`` for a female player, else ``masculine`` (both already translated)."""
    return feminine if sex == FEMALE else masculine


def plural(n: float | Decimal, singular: str, plural_form: str) -> str:
    """The noun that goes with ``n`` in Portuguese, for the texts written in Portuguese in the code (commands,
    import reports): singular from 0 (exclusive) to 2 (exclusive), as in "1,5 ponto", "1 mesa", else the plural
    ("0 pontos", "2 mesas"). Messages that go through gettext use ngettext instead."""
    size = abs(float(n))
    return singular if 0 < size < 2 else plural_form
