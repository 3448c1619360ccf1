import logging

from django.core.management.base import BaseCommand

from tournaments.interchange import ImportOptions, InterchangeError, import_file, notices
from tournaments.interchange.cli import error_text, fail

logger = logging.getLogger(__name__)


def _rounds(text: str) -> int:
    from argparse import ArgumentTypeError

    from tournaments.models.choices import MAX_ROUNDS

    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_ROUNDS:
        raise ArgumentTypeError(f"número de rodadas inválido: {text!r} (de 1 a {MAX_ROUNDS})")
    return int(text)


def _slug(text: str) -> str:
    from argparse import ArgumentTypeError

    from django.core.exceptions import ValidationError
    from django.core.validators import validate_slug

    try:
        validate_slug(text)
    except ValidationError:
        raise ArgumentTypeError(f"endereço inválido: {text!r} (use letras, números, hífen e sublinhado)") from None
    if len(text) > 80:
        raise ArgumentTypeError("endereço longo demais (no máximo 80 caracteres)")
    return text


def _director(login):
    """The login that will direct the imported event (as the web import makes the importer its director), looked up
    before anything is written: an unknown or disabled login stops the import."""
    from django.contrib.auth import get_user_model

    from tournaments.accounts.director import DIRECTOR_USERNAME

    user = get_user_model().objects.filter(username=login.strip()).first()
    if user is None:
        fail(
            f"login “{login}” não existe neste computador: nada foi importado (o diretor do local é “{DIRECTOR_USERNAME}”, "
            "criado por make run; crie outro login antes de usá-lo em --director)"
        )
    if not user.is_active:
        fail(f"o login “{login}” está desativado: nada foi importado")
    return user


class Command(BaseCommand):
    help = (
        "Cria um torneio a partir de um arquivo de torneio (intercâmbio .json, TRF .trf/.trfx/.txt/.tab, Swiss "
        "Perfect: .zip com .ini/.trn/.sco, um deles com os outros na mesma pasta, ou a tabela cruzada .txt); "
        "imprime o endereço (slug). Avisos da importação vão para a saída de erro, todos, primeiro os que mudam "
        "pontos, emparceiramentos ou direitos. Com --director LOGIN, esse login dirige o torneio (como quem o "
        "importa pela página)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", metavar="FILE", help="arquivo .json (damas-swiss/1), TRF (partida única) ou do Swiss Perfect"
        )
        parser.add_argument(
            "--rounds",
            type=_rounds,
            metavar="N",
            help="número de rodadas do torneio, para um TRF que não o diz (sem linha XXR ou 142)",
        )
        parser.add_argument(
            "--slug",
            type=_slug,
            metavar="ENDERECO",
            help="endereço (slug) do torneio criado, para importar a cópia de um torneio que este banco já tem",
        )
        parser.add_argument(
            "--director",
            metavar="LOGIN",
            help="login que dirige o torneio criado (no local: diretor); sem ele o torneio não tem diretor e ninguém "
            "abre as suas páginas de gestão (o arquivo não traz logins); um login desconhecido ou desativado é "
            "recusado e nada é importado",
        )
        parser.add_argument(
            "--follow-declared-points",
            action="store_true",
            help="TRF cujos pontos declarados diferem da soma dos resultados: valem os pontos declarados (a diferença "
            "entra como pontos fora das partidas de cada jogador, com o motivo, e conta na classificação e no "
            "emparceiramento); sem a opção vale a soma dos resultados",
        )
        parser.add_argument(
            "--leave-out-round-in-progress",
            action="store_true",
            help="TRF com uma rodada em andamento (emparceirada, sem todos os resultados): importa só as rodadas "
            "completas e deixa essa de fora (ela é a próxima a emparceirar); para um arquivo cuja rodada em "
            "andamento se contradiz",
        )

    def handle(self, *args, **options):
        director = _director(options["director"]) if options["director"] is not None else None
        try:
            imported = import_file(
                options["file"],
                user=director,
                options=ImportOptions(
                    rounds=options["rounds"],
                    slug=options["slug"],
                    follow_declared_points=options["follow_declared_points"],
                    leave_out_round_in_progress=options["leave_out_round_in_progress"],
                ),
            )
        except InterchangeError as exc:
            fail(error_text(exc))
        except Exception:  # an internal error: nothing was written (all or nothing); logged, then one line
            logger.exception("import_tournament %s: internal error while importing", options["file"])
            fail("falha interna na importação (nada foi gravado; o erro está no log)")
        # every warning, what changes points, pairings or rights first (issue 38.2), each group under its heading
        for _consequence, heading, warnings in notices.grouped(imported.warnings):
            self.stderr.write(f"{heading}:")
            for warning in warnings:
                self.stderr.write(f"aviso: {warning}")
        self.stdout.write(imported.tournament.slug)
