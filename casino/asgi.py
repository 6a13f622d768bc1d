"""The ASGI application: what the server (gunicorn with uvicorn workers, casino/serve.py web)
serves. Sync views run in a thread per request; the table streams are async views."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DB_POOL", "1")  # see DATABASES in casino/settings.py
application = get_asgi_application()
