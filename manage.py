#!/usr/bin/env python
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    # The developer's command line: with nothing configured at all it runs on the embedded
    # defaults (and says so). A deployment sets CASINO_ENV=production or at least its
    # SECRET_KEY / DATABASE_URL, and then the production checks of casino/settings.py apply;
    # the web tier (wsgi/asgi) never gets this default.
    if not any(os.environ.get(name) for name in ("CASINO_ENV", "SECRET_KEY", "DATABASE_URL")):
        os.environ["CASINO_ENV"] = "development"
        print("CASINO_ENV not set: using development (embedded defaults)", file=sys.stderr)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
