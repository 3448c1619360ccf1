from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from tournaments.setup.demo import DEMO_PASSWORD, DEMO_USERNAME


class Command(BaseCommand):
    help = "Create (or reset) the local director login of the demo and print the URL and credentials."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/")

    def handle(self, *args, **options):
        User = get_user_model()
        user, _ = User.objects.get_or_create(username=DEMO_USERNAME)
        user.is_staff = user.is_superuser = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        url = options["url"]
        self.stdout.write("")
        self.stdout.write(f"  Endereço:  {url}")
        self.stdout.write(f"  Gestão:    {url}gestao/")
        self.stdout.write(f"  Usuário:   {DEMO_USERNAME}")
        self.stdout.write(f"  Senha:     {DEMO_PASSWORD}")
        self.stdout.write("")
