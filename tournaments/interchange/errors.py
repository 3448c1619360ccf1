from tournaments.core.errors import ServiceError


class InterchangeError(ServiceError):
    """A file that cannot be imported (or a tournament that cannot be exported in a format).

    ``messages`` lists every problem found, each naming where (pt-BR; these are file diagnostics, not UI
    strings). Nothing is written when this is raised.
    """

    def one_line(self) -> str:
        msgs = self.messages
        text = msgs[0] if msgs else ""
        if len(msgs) > 1:
            text += f" (e mais {len(msgs) - 1} erro{'s' if len(msgs) > 2 else ''})"
        return " ".join(text.split())
