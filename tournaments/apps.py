from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_delete, post_save

        from tournaments.accounts.sessions import stamp_login
        from tournaments.core import checks  # noqa: F401  (registers the system checks)
        from tournaments.public.page_cache import forget_categories, forget_slug

        # The public pages remember a tournament's id by slug; a renamed or deleted tournament is forgotten at once.
        tournament = self.get_model("Tournament")
        for signal in (post_save, post_delete):
            signal.connect(forget_slug, sender=tournament, dispatch_uid="public-forget-slug")
            signal.connect(forget_categories, sender=self.get_model("Category"), dispatch_uid="public-forget-cats")
        # A login stamps its session: staff sessions last a working day and end on every device on request.
        user_logged_in.connect(stamp_login, dispatch_uid="staff-session-stamp")
        # A round's fingerprint stored: the federation's queue sends it when online (issue 35.4).
        from tournaments.federation.tasks import on_fingerprint_sealed
        from tournaments.rounds.fingerprints import fingerprint_sealed

        fingerprint_sealed.connect(on_fingerprint_sealed, dispatch_uid="federation-send-fingerprint")
