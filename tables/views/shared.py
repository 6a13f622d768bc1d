"""Permissions, the player query and request scoping the tables views share."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from casino.actors import Actor
from casino.api.inputs import MAX_ID, staff_user
from casino.api.permissions import caller_has, request_scope
from casino.errors import NotFound
from ledger.models import Player
from ledger.selectors import player_get
from tables import selectors, services

VIEW = "tables.view_table"
OPERATE = "tables.operate_table"
DEAL = "tables.deal_round"

PLAYER_PARAMETER = OpenApiParameter(
    name="player_id",
    type=OpenApiTypes.INT,
    location=OpenApiParameter.QUERY,
    required=False,
    description="Show this player's legal actions (an operator sees only its own players).",
)


class _PlayerQuery(serializers.Serializer):
    player_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)


def player_for(request, player_id: int | None) -> Player | None:
    """The player an operator acts for: only the operator's own players exist for it."""
    if player_id is None:
        return None
    player = player_get(pk=player_id, operator_id=request_scope(request).operator_id)
    if player is None:
        raise NotFound(f"Player {player_id} does not exist.")
    return player


def query_player(request) -> Player | None:
    data = _PlayerQuery(data=request.query_params)
    data.is_valid(raise_exception=True)
    return player_for(request, data.validated_data.get("player_id"))


def actor_of(request) -> Actor:
    return Actor.from_request(request)


def dealing_at(request, *, table=None, round_id: int | None = None) -> None:
    """A staff member dealing: at their own table, unless they are pit staff (a device's scope
    is its table already). The round's table is read only for a staff member."""
    user = staff_user(request)
    if user is None:
        return
    if table is None:
        table = selectors.round_get(pk=round_id).table
    services.dealing_check(table=table, user_id=user.pk, pit=caller_has(request, OPERATE))


def table_scope(request) -> int | None:
    return request_scope(request).table_id


def seen(request) -> dict:
    """The selectors' scoping of tables and rounds: a device's own table, and the sandbox or
    the live casino for an operator's principals (casino/sandbox)."""
    scope = request_scope(request)
    return {"table_id": scope.table_id, "sandbox": scope.sandbox}
