import sys

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.services import user_set_password


class Command(BaseCommand):
    help = (
        "Sets the website password of EMAIL, read from stdin (one line), so it never "
        "appears in the shell history or the process list. The user must exist."
    )

    def add_arguments(self, parser):
        parser.add_argument("email")

    def handle(self, *args, email, **options):
        user = User.objects.filter(email=User.objects.normalize_email(email).lower()).first()
        if user is None:
            raise CommandError(f"no user with email {email!r}")
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise CommandError("no password on stdin")
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        user_set_password(user=user, password=password)
        self.stdout.write(f"password set for {user.email}")
