"""Staff tables (django-tables2): sortable, exportable to CSV and XLSX."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport
from tablib import Dataset

from tournaments.core.safetext import spreadsheet_row
from tournaments.models import Entry


class SafeTableExport(TableExport):
    """django-tables2's CSV/XLSX export with every cell made safe (``safetext.spreadsheet_value``): a player's
    name that a spreadsheet would run as a formula is written as text, numbers stay numbers."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        try:
            title = str(table.Meta.model._meta.verbose_name_plural).title()
        except AttributeError:
            title = "Export Data"
        dataset = Dataset(**{"title": title, **(dataset_kwargs or {})})
        for i, row in enumerate(table.as_values(exclude_columns=exclude_columns)):
            if i == 0:
                dataset.headers = spreadsheet_row(row)
            else:
                dataset.append(spreadsheet_row(row))
        return dataset


class EntryTable(tables.Table):
    pairing_number = tables.Column(verbose_name=_("No."))
    name = tables.LinkColumn(
        "staff:entry",
        args=[tables.A("tournament__slug"), tables.A("pk")],
        accessor="player__name",
        verbose_name=_("name"),
        order_by="player__name",
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


# A column a phone's screen leaves out (site.css, ``.wide-only``): the page and paper show it.
WIDE_ONLY = {"cell": {"class": "wide-only"}}


class PairingTable(tables.Table):
    """Boards of a round with both players (rating, score before the round) and each game's result (rows are
    plain dicts). On a phone the board, the two players and the result are what show: the numbers, ratings and
    points beside each player are ``wide-only`` (the games and the opening follow the result, sideways)."""

    board = tables.Column(verbose_name=_("board"))
    first_no = tables.Column(verbose_name=_("No."), attrs=WIDE_ONLY)
    first = tables.Column(verbose_name=_("White (game 1)"))
    first_rating = tables.Column(verbose_name=_("rating"), empty_values=(), attrs=WIDE_ONLY)
    first_before = tables.Column(verbose_name=_("pts before"), empty_values=(), attrs=WIDE_ONLY)
    first_points = tables.Column(verbose_name=_("pts"), attrs=WIDE_ONLY)
    score = tables.Column(verbose_name=_("result"), orderable=False, attrs={"cell": {"class": "result"}})
    second_points = tables.Column(verbose_name=_("pts"), attrs=WIDE_ONLY)
    second_before = tables.Column(verbose_name=_("pts before"), empty_values=(), attrs=WIDE_ONLY)
    second_rating = tables.Column(verbose_name=_("rating"), empty_values=(), attrs=WIDE_ONLY)
    second = tables.Column(verbose_name=_("Black (game 1)"))
    second_no = tables.Column(verbose_name=_("No."), attrs=WIDE_ONLY)
    games = tables.Column(verbose_name=_("games"), orderable=False)
    opening = tables.Column(verbose_name=_("opening"))

    class Meta:
        attrs = {"class": "table"}
        order_by = ("board",)
