"""Database constraints reach users as Portuguese messages on the field concerned, never by their names.

``FriendlyConstraints.CONSTRAINT_MESSAGES`` maps a constraint's name to (field, message). Model validation
(``full_clean``, hence every ModelForm) raises that message on that field when the form has it, otherwise on
the form as a whole; a constraint missing from the map still gets a plain sentence, not its name.
``SearchKeyField`` keeps a folded copy of a text field (no accents, no case, no apostrophes) for searches that behave the same
on SQLite and PostgreSQL.
"""

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, router
from django.utils.translation import gettext_lazy as _

from tournaments.domain import names

# One rule for names everywhere (issue 37.5): accents, case and apostrophes aside (tournaments/domain/names.py).
fold = names.fold


class SearchKeyField(models.CharField):
    """A CharField that always holds ``fold()`` of another field, computed on every save (bulk_create too)."""

    def __init__(self, *args, source="name", **kwargs):
        self.source = source
        kwargs.setdefault("editable", False)
        kwargs.setdefault("blank", True)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["source"] = self.source
        kwargs.pop("editable", None)
        kwargs.pop("blank", None)
        return name, path, args, kwargs

    def pre_save(self, model_instance, add):
        value = fold(getattr(model_instance, self.source))[: self.max_length]
        setattr(model_instance, self.attname, value)
        return value


GENERIC_MESSAGE = _("These values cannot be saved together; check the fields.")


class FriendlyConstraints(models.Model):
    CONSTRAINT_MESSAGES: dict = {}

    class Meta:
        abstract = True

    def validate_constraints(self, exclude=None):
        exclude = set(exclude or ())
        using = router.db_for_write(type(self), instance=self)
        errors: dict = {}
        for model_class, constraints in self.get_constraints():
            for constraint in constraints:
                try:
                    constraint.validate(model_class, self, exclude=exclude, using=using)
                except ValidationError:
                    field, message = self.CONSTRAINT_MESSAGES.get(constraint.name, (None, GENERIC_MESSAGE))
                    key = field if field and field not in exclude else NON_FIELD_ERRORS
                    errors.setdefault(key, []).append(ValidationError(message, code="constraint"))
        if errors:
            raise ValidationError(errors)
