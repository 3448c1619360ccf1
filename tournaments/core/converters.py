"""URL converters: numbers in paths are at most 9 digits, so a forged huge number is a 404, never a database
overflow (a 500)."""

from django.urls import register_converter


class SmallIntConverter:
    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(SmallIntConverter, "num")
