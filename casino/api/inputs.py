"""Small helpers every view uses to read its input."""

from django.contrib.auth.models import AbstractBaseUser


def validated(serializer_class, request, **kwargs) -> dict:
    """Validate the request body with an InputSerializer; failures become 400 problems."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def staff_user(request):
    """The staff user behind a request, or None for API keys and devices."""
    user = request.user
    return user if isinstance(user, AbstractBaseUser) else None
