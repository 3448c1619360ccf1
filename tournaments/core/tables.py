"""Staff tables (django-tables2): sortable; downloaded as CSV and XLSX by ``core.exports.table_download``."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry


class EntryTable(tables.Table):
    pairing_number = tables.Column(verbose_name=_("No."))
    name = tables.LinkColumn(
        "staff:entry",
        args=[tables.A("tournament__slug"), tables.A("pk")],
        accessor="player__name",
        verbose_name=_("name"),
        order_by="player__search_name",
    )
    cbjd_id = tables.Column(accessor="player__cbjd_id", verbose_name="CBJD", order_by="player__cbjd_id")
    rating = tables.Column(verbose_name=_("rating"))
    sex = tables.Column(accessor="player__sex", verbose_name=_("sex"), order_by="player__sex")
    birth_date = tables.DateColumn(
        accessor="player__birth_date", verbose_name=_("birth date"), format="d/m/Y", order_by="player__birth_date"
    )
    state = tables.Column(accessor="player__state", verbose_name=_("state (UF)"), order_by="player__state")
    club = tables.Column(accessor="player__club", verbose_name=_("club"), order_by="player__club")
    categories = tables.Column(empty_values=(), orderable=False, verbose_name=_("categories"))
    status = tables.Column(empty_values=(), verbose_name=_("status"), order_by="status")

    class Meta:
        model = Entry
        fields: list[str] = []
        sequence = [
            "pairing_number",
            "name",
            "cbjd_id",
            "rating",
            "sex",
            "birth_date",
            "state",
            "club",
            "categories",
            "status",
        ]
        attrs = {"class": "table"}
        order_by = ("pairing_number",)

    def render_categories(self, record):
        return ", ".join(c.code for c in record.categories.all())

    def value_categories(self, record):
        return self.render_categories(record)

    def render_status(self, record):
        if record.withdrawn_from_round:
            return _("withdrawn from round %(n)s") % {"n": record.withdrawn_from_round}
        if record.late_entry_round:
            return _("late entry (round %(n)s)") % {"n": record.late_entry_round}
        return _("active")

    def value_status(self, record):
        return str(self.render_status(record))

    def value_birth_date(self, record):
        return record.player.birth_date  # a date in the files (dd/mm/aaaa in the CSV, a date cell in the XLSX)

    def value_rating(self, record):
        return record.rating  # None (an empty cell) when unrated, never the page's dash


# A column a phone's screen leaves out (site.css, ``.wide-only``): the page and paper show it.
WIDE_ONLY = {"cell": {"class": "wide-only"}}
# A player's name: on one line (site.css, ``.round-table td.name``).
NAME = {"td": {"class": "name"}}
# A rating, left out on a phone's screen: "s/r" when the player has none.
RATING = {"th": {"class": "wide-only"}, "td": {"class": "wide-only rating"}}


class PairingTable(tables.Table):
    """Boards of a round with both players (rating, score before the round) and each game's result (rows are
    plain dicts). On a phone the board, the two players and the result are what show: the numbers, ratings and
    points beside each player are ``wide-only`` (the games and the opening follow the result, sideways). On a
    laptop (1366 px) a board is one compact line, the names whole on it (issue 28, point 13)."""

    board = tables.Column(verbose_name=_("board"))
    first_no = tables.Column(verbose_name=_("No."), attrs=WIDE_ONLY)
    first = tables.Column(verbose_name=_("White (game 1)"), attrs=NAME)
    first_rating = tables.Column(verbose_name=_("rating"), empty_values=(), attrs=RATING)
    first_before = tables.Column(verbose_name=_("pts before"), empty_values=(), attrs=WIDE_ONLY)
    first_points = tables.Column(verbose_name=_("pts"), attrs=WIDE_ONLY)
    score = tables.Column(verbose_name=_("result"), orderable=False, attrs={"cell": {"class": "result"}})
    second_points = tables.Column(verbose_name=_("pts"), attrs=WIDE_ONLY)
    second_before = tables.Column(verbose_name=_("pts before"), empty_values=(), attrs=WIDE_ONLY)
    second_rating = tables.Column(verbose_name=_("rating"), empty_values=(), attrs=RATING)
    second = tables.Column(verbose_name=_("Black (game 1)"), attrs=NAME)
    second_no = tables.Column(verbose_name=_("No."), attrs=WIDE_ONLY)
    games = tables.Column(verbose_name=_("games"), orderable=False)
    opening = tables.Column(verbose_name=_("opening"))

    # the downloads' headers: each side's number, rating and points named for their side (the page repeats them)
    export_headers = {
        "first_no": _("No. (White, game 1)"),
        "first_rating": _("rating (White, game 1)"),
        "first_before": _("pts before (White, game 1)"),
        "first_points": _("pts (White, game 1)"),
        "second_points": _("pts (Black, game 1)"),
        "second_before": _("pts before (Black, game 1)"),
        "second_rating": _("rating (Black, game 1)"),
        "second_no": _("No. (Black, game 1)"),
    }

    class Meta:
        attrs = {"class": "table compact round-table"}
        order_by = ("board",)

    @staticmethod
    def _rating(value):
        return value if value not in ("", None) else _("unr.")  # "s/r", as the public standings say it

    def render_first_rating(self, value):
        return self._rating(value)

    def render_second_rating(self, value):
        return self._rating(value)

    # the downloads' values: numbers as numbers (the page's are formatted text), None for an empty cell
    def value_first_rating(self, record):
        return record["first_entry"].rating

    def value_second_rating(self, record):
        return record["second_entry"].rating

    def value_first_before(self, record):
        return record["values"]["first_before"]

    def value_second_before(self, record):
        return record["values"]["second_before"]

    def value_first_points(self, record):
        return record["values"]["first_points"]

    def value_second_points(self, record):
        return record["values"]["second_points"]
