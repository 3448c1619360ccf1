"""System checks of our own (run by `manage.py check`, the deploy ones by `check --deploy`)."""

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.caches, deploy=True)
def shared_cache_in_production(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """Several gunicorn workers each with a memory cache would serve stale public pages after a result changes."""
    backend = settings.CACHES["default"]["BACKEND"]
    if backend.endswith("LocMemCache"):
        return [
            Warning(
                "The cache is per process (no REDIS_URL): with several workers or servers a public page may lag "
                "behind a saved result.",
                hint="Set REDIS_URL so every worker shares one cache.",
                id="tournaments.W001",
            )
        ]
    return []
