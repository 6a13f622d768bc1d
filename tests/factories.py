import factory
from django.contrib.auth.models import Group, User

from ledger.models import Account, Operator, Player
from tables.models import Casino, Table


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"staff{n}")
    is_staff = True
    password = factory.PostGenerationMethodCall("set_password", "correct-horse-battery")

    @factory.post_generation
    def roles(self, create, extracted, **kwargs):
        for role in extracted or ():
            self.groups.add(Group.objects.get(name=role))
        if create:
            self.save()


class OperatorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Operator

    code = factory.Sequence(lambda n: f"op{n}")
    name = factory.Sequence(lambda n: f"Operator {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    operator = factory.SubFactory(OperatorFactory)
    external_ref = factory.Sequence(lambda n: f"player-{n}")
    display_name = factory.Faker("name")


class CasinoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Casino
        django_get_or_create = ("code",)

    code = "main"
    name = "Main casino"


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    casino = factory.SubFactory(CasinoFactory)
    code = factory.Sequence(lambda n: f"t{n}")
    name = factory.Sequence(lambda n: f"Table {n}")


class WalletFactory(factory.django.DjangoModelFactory):
    """A player's wallet, empty: fund it with ``ledger.services.wallet_deposit``."""

    class Meta:
        model = Account

    kind = Account.Kind.WALLET
    currency = "EUR"
    player = factory.SubFactory(PlayerFactory)
    operator = factory.SelfAttribute("player.operator")
