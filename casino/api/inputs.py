"""Small helpers every view uses to read its input."""

from django.contrib.auth.models import AbstractBaseUser

from casino.errors import PermissionDenied

MAX_ID = 2**63 - 1  # PostgreSQL bigint: the largest id an input may name


def validated(serializer_class, request, **kwargs) -> dict:
    """Validate the request body with an InputSerializer; failures become 400 problems."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def staff_user(request):
    """The staff user behind a request, or None for API keys and devices."""
    user = request.user
    return user if isinstance(user, AbstractBaseUser) else None


def staff_user_required(request, refusal: str):
    """The staff user behind a request; ``refusal`` (403) for API keys and devices."""
    user = staff_user(request)
    if user is None:
        raise PermissionDenied(refusal)
    return user
