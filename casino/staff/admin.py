"""django-otp registers its device admins on the default site; the console lists only audited
ModelAdmins (tests/console), and nobody should read a TOTP secret there: devices are
managed through the login's enrolment (casino/staff/views.py)."""

from django.contrib import admin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

for model in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
