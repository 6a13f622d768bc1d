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


def live_table(preset: str, *, card_source: str = "card_reader", **fields):
    """An open table playing ``preset`` (rule versions pinned), with a loaded reader shoe when
    it is reader-fed."""
    from casino.actors import Actor
    from tables import services

    actor = Actor.system("factories")
    rule_set, payouts = services.preset_versions_ensure(actor=actor, preset=preset)
    table = TableFactory(
        rule_set=rule_set, payout_schedule=payouts, card_source=card_source, **fields
    )
    services.table_open(actor=actor, table_id=table.pk)
    if card_source == "card_reader":
        services.shoe_load(
            actor=actor, table_id=table.pk, shuffle_method="shuffler", device_id="reader-1"
        )
    return table


def funded_player(amount: int = 10_000, *, operator=None, currency: str = "EUR"):
    """A player with a wallet holding ``amount`` minor units."""
    from casino.actors import Actor
    from ledger.services import wallet_deposit

    player = PlayerFactory(**({"operator": operator} if operator is not None else {}))
    wallet = WalletFactory(player=player, currency=currency)
    wallet_deposit(actor=Actor.system("factories"), wallet=wallet, amount=amount)
    return player
