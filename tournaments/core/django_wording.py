"""Django's own Portuguese wording for six messages that Django REST framework's catalogue words otherwise.

DRF is an installed app, so its pt_BR catalogue is searched before Django's and would change, for instance,
"O arquivo enviado está vazio." (the form field's message every upload page shows) into its own wording
(issue 29). The project's catalogue keeps Django's wording; the strings are marked here so that
``makemessages`` keeps their entries instead of making them obsolete (it keeps only strings found in the
project's source)."""

from django.utils.translation import gettext_noop

DJANGO_WORDING = (
    gettext_noop("Enter a valid URL."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("No file was submitted."),
    gettext_noop("The submitted file is empty."),
    gettext_noop("Upload a valid image. The file you uploaded was either not an image or a corrupted image."),
    gettext_noop("Value must be valid JSON."),
)
