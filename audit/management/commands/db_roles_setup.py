import os

from django.core.management.base import BaseCommand
from django.db import connections, transaction

from audit.dbroles import db_roles_setup


class Command(BaseCommand):
    help = (
        "Create the owner role (runs migrations) and the application role (INSERT and SELECT "
        "only on append-only tables), and grant them. Idempotent; run it as a superuser after "
        "migrations. Passwords come from CASINO_OWNER_PASSWORD and CASINO_APP_PASSWORD."
    )

    def add_arguments(self, parser):
        parser.add_argument("--owner", default="casino_owner")
        parser.add_argument("--app", default="casino_app")
        parser.add_argument("--database", default="default", help="connection alias to use")
        parser.add_argument("--print-sql", action="store_true", help="print, do not execute")

    def handle(self, *args, owner, app, database, print_sql, **options):
        with transaction.atomic(using=database), connections[database].cursor() as cursor:
            statements = db_roles_setup(
                cursor,
                owner=owner,
                app=app,
                owner_password=os.environ.get("CASINO_OWNER_PASSWORD"),
                app_password=os.environ.get("CASINO_APP_PASSWORD"),
                execute=not print_sql,
            )
        for statement in statements:
            self.stdout.write(statement + ";")
