from rest_framework.throttling import SimpleRateThrottle


class PerCredentialThrottle(SimpleRateThrottle):
    """A rate per API key / device / staff user; anonymous callers are limited by address.

    Counters live in the Django cache: set CACHE_URL to Redis so every web node shares them.
    """

    scope = "credential"

    def get_cache_key(self, request, view):
        user = request.user
        if user is not None and user.is_authenticated:
            ident = getattr(user, "throttle_key", None) or f"user:{user.pk}"
        else:
            ident = f"ip:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
