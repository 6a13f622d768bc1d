"""The pit console's admin site: only staff whose session passed the second factor."""

from __future__ import annotations

from functools import partial

from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpResponseRedirect
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters

from casino.staff import mfa


class ConsoleAdminSite(admin.AdminSite):
    def has_permission(self, request):
        # Every page of the console (the admin's and forensics/console_urls.py's) checks this.
        return super().has_permission(request) and mfa.is_verified(request.user)

    def login(self, request, extra_context=None):
        from casino.staff.views import StaffLoginView

        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(reverse("admin:index", current_app=self.name))
        context = {
            **self.each_context(request),
            "title": "Log in",
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
        }
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=self.name)
        context.update(extra_context or {})
        request.current_app = self.name
        return StaffLoginView.as_view(extra_context=context)(request)

    def get_urls(self):
        from casino.staff import views

        def step(view):
            return never_cache(
                sensitive_post_parameters("token")(csrf_protect(partial(view, site=self)))
            )

        return [
            path("mfa/", step(views.mfa_verify), name="staff_mfa_verify"),
            path("mfa/enrol/", step(views.mfa_enrol), name="staff_mfa_enrol"),
            *super().get_urls(),
        ]
