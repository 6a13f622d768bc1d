from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.phase_enum import PhaseEnum

if TYPE_CHECKING:
    from ..models.bet_outcome import BetOutcome
    from ..models.box_state import BoxState
    from ..models.card_target import CardTarget
    from ..models.dealer_state import DealerState
    from ..models.player_action import PlayerAction
    from ..models.round_next import RoundNext
    from ..models.turn_view import TurnView
    from ..models.void_request_state import VoidRequestState


T = TypeVar("T", bound="RoundView")


@_attrs_define
class RoundView:
    """A round as the caller sees it: the table's state, whose turn (bets and players), what
    the round wants next, the legal actions of every one of the caller's players, and once
    settled or voided each bet's outcome.

        Attributes:
            betting_closes_at (datetime.datetime | None):
            boxes (list[BoxState]):
            currency (str):
            dealer (DealerState):
            decision_deadline (datetime.datetime | None):
            engine_phase (str):
            held (bool): a void request holds the round: no card, decision or settlement until it is approved, rejected,
                cancelled or expires
            next_ (RoundNext):
            next_card (CardTarget | None):
            number (int):
            outcomes (list[BetOutcome] | None): null until the round is settled or voided
            payout_schedule (str):
            phase (PhaseEnum): * `open` - open
                * `closed` - closed
                * `dealing` - dealing
                * `playing` - playing
                * `dealer` - dealer
                * `settling` - settling
                * `settled` - settled
                * `voided` - voided
            round_id (int):
            rule_set (str):
            seq (int):
            suspended_reason (str):
            table_id (int):
            turn (None | TurnView):
            void_request (None | VoidRequestState): the latest one
            your_actions (list[PlayerAction]): the legal actions now of each of the caller's players (an operator: all its
                players; `player_id` narrows to one)
    """

    betting_closes_at: datetime.datetime | None
    boxes: list[BoxState]
    currency: str
    dealer: DealerState
    decision_deadline: datetime.datetime | None
    engine_phase: str
    held: bool
    next_: RoundNext
    next_card: CardTarget | None
    number: int
    outcomes: list[BetOutcome] | None
    payout_schedule: str
    phase: PhaseEnum
    round_id: int
    rule_set: str
    seq: int
    suspended_reason: str
    table_id: int
    turn: None | TurnView
    void_request: None | VoidRequestState
    your_actions: list[PlayerAction]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_target import CardTarget
        from ..models.turn_view import TurnView
        from ..models.void_request_state import VoidRequestState

        betting_closes_at: None | str
        if isinstance(self.betting_closes_at, datetime.datetime):
            betting_closes_at = self.betting_closes_at.isoformat()
        else:
            betting_closes_at = self.betting_closes_at

        boxes = []
        for boxes_item_data in self.boxes:
            boxes_item = boxes_item_data.to_dict()
            boxes.append(boxes_item)

        currency = self.currency

        dealer = self.dealer.to_dict()

        decision_deadline: None | str
        if isinstance(self.decision_deadline, datetime.datetime):
            decision_deadline = self.decision_deadline.isoformat()
        else:
            decision_deadline = self.decision_deadline

        engine_phase = self.engine_phase

        held = self.held

        next_ = self.next_.to_dict()

        next_card: dict[str, Any] | None
        if isinstance(self.next_card, CardTarget):
            next_card = self.next_card.to_dict()
        else:
            next_card = self.next_card

        number = self.number

        outcomes: list[dict[str, Any]] | None
        if isinstance(self.outcomes, list):
            outcomes = []
            for outcomes_type_0_item_data in self.outcomes:
                outcomes_type_0_item = outcomes_type_0_item_data.to_dict()
                outcomes.append(outcomes_type_0_item)

        else:
            outcomes = self.outcomes

        payout_schedule = self.payout_schedule

        phase = self.phase.value

        round_id = self.round_id

        rule_set = self.rule_set

        seq = self.seq

        suspended_reason = self.suspended_reason

        table_id = self.table_id

        turn: dict[str, Any] | None
        if isinstance(self.turn, TurnView):
            turn = self.turn.to_dict()
        else:
            turn = self.turn

        void_request: dict[str, Any] | None
        if isinstance(self.void_request, VoidRequestState):
            void_request = self.void_request.to_dict()
        else:
            void_request = self.void_request

        your_actions = []
        for your_actions_item_data in self.your_actions:
            your_actions_item = your_actions_item_data.to_dict()
            your_actions.append(your_actions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "betting_closes_at": betting_closes_at,
                "boxes": boxes,
                "currency": currency,
                "dealer": dealer,
                "decision_deadline": decision_deadline,
                "engine_phase": engine_phase,
                "held": held,
                "next": next_,
                "next_card": next_card,
                "number": number,
                "outcomes": outcomes,
                "payout_schedule": payout_schedule,
                "phase": phase,
                "round_id": round_id,
                "rule_set": rule_set,
                "seq": seq,
                "suspended_reason": suspended_reason,
                "table_id": table_id,
                "turn": turn,
                "void_request": void_request,
                "your_actions": your_actions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bet_outcome import BetOutcome
        from ..models.box_state import BoxState
        from ..models.card_target import CardTarget
        from ..models.dealer_state import DealerState
        from ..models.player_action import PlayerAction
        from ..models.round_next import RoundNext
        from ..models.turn_view import TurnView
        from ..models.void_request_state import VoidRequestState

        d = dict(src_dict)

        def _parse_betting_closes_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                betting_closes_at_type_0 = datetime.datetime.fromisoformat(data)

                return betting_closes_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        betting_closes_at = _parse_betting_closes_at(d.pop("betting_closes_at"))

        boxes = []
        _boxes = d.pop("boxes")
        for boxes_item_data in _boxes:
            boxes_item = BoxState.from_dict(boxes_item_data)

            boxes.append(boxes_item)

        currency = d.pop("currency")

        dealer = DealerState.from_dict(d.pop("dealer"))

        def _parse_decision_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decision_deadline_type_0 = datetime.datetime.fromisoformat(data)

                return decision_deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decision_deadline = _parse_decision_deadline(d.pop("decision_deadline"))

        engine_phase = d.pop("engine_phase")

        held = d.pop("held")

        next_ = RoundNext.from_dict(d.pop("next"))

        def _parse_next_card(data: object) -> CardTarget | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                next_card_type_1 = CardTarget.from_dict(data)

                return next_card_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardTarget | None, data)

        next_card = _parse_next_card(d.pop("next_card"))

        number = d.pop("number")

        def _parse_outcomes(data: object) -> list[BetOutcome] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                outcomes_type_0 = []
                _outcomes_type_0 = data
                for outcomes_type_0_item_data in _outcomes_type_0:
                    outcomes_type_0_item = BetOutcome.from_dict(outcomes_type_0_item_data)

                    outcomes_type_0.append(outcomes_type_0_item)

                return outcomes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[BetOutcome] | None, data)

        outcomes = _parse_outcomes(d.pop("outcomes"))

        payout_schedule = d.pop("payout_schedule")

        phase = PhaseEnum(d.pop("phase"))

        round_id = d.pop("round_id")

        rule_set = d.pop("rule_set")

        seq = d.pop("seq")

        suspended_reason = d.pop("suspended_reason")

        table_id = d.pop("table_id")

        def _parse_turn(data: object) -> None | TurnView:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                turn_type_1 = TurnView.from_dict(data)

                return turn_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TurnView, data)

        turn = _parse_turn(d.pop("turn"))

        def _parse_void_request(data: object) -> None | VoidRequestState:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                void_request_type_1 = VoidRequestState.from_dict(data)

                return void_request_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VoidRequestState, data)

        void_request = _parse_void_request(d.pop("void_request"))

        your_actions = []
        _your_actions = d.pop("your_actions")
        for your_actions_item_data in _your_actions:
            your_actions_item = PlayerAction.from_dict(your_actions_item_data)

            your_actions.append(your_actions_item)

        round_view = cls(
            betting_closes_at=betting_closes_at,
            boxes=boxes,
            currency=currency,
            dealer=dealer,
            decision_deadline=decision_deadline,
            engine_phase=engine_phase,
            held=held,
            next_=next_,
            next_card=next_card,
            number=number,
            outcomes=outcomes,
            payout_schedule=payout_schedule,
            phase=phase,
            round_id=round_id,
            rule_set=rule_set,
            seq=seq,
            suspended_reason=suspended_reason,
            table_id=table_id,
            turn=turn,
            void_request=void_request,
            your_actions=your_actions,
        )

        round_view.additional_properties = d
        return round_view

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
