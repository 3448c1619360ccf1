"""A JSON value's type in SQL, for constraints: ``field__json_typeof="array"`` (SQLite ``json_type``, PostgreSQL
``jsonb_typeof``; both name an array "array", an object "object" and JSON null "null")."""

from typing import Any

from django.db import models


@models.JSONField.register_lookup
class JSONTypeOf(models.Transform):
    lookup_name = "json_typeof"
    function = "JSON_TYPE"
    output_field = models.CharField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_TYPEOF", **extra_context)
