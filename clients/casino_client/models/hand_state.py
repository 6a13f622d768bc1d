from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.hand_state_stakes import HandStateStakes


T = TypeVar("T", bound="HandState")


@_attrs_define
class HandState:
    """
    Attributes:
        cards (list[None | str]): null: a face-down card (the box's own player sees it)
        currency (str):
        doubles (int):
        forced_cards (list[int]): positions in cards of the cards dealt by the rules, without a decision
        index (int):
        soft (bool):
        split (bool):
        stakes (HandStateStakes): Minor units of `currency`, by bet id.
        status (str):
        total (int | None): null while a card is face down
    """

    cards: list[None | str]
    currency: str
    doubles: int
    forced_cards: list[int]
    index: int
    soft: bool
    split: bool
    stakes: HandStateStakes
    status: str
    total: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards = []
        for cards_item_data in self.cards:
            cards_item: None | str
            cards_item = cards_item_data
            cards.append(cards_item)

        currency = self.currency

        doubles = self.doubles

        forced_cards = self.forced_cards

        index = self.index

        soft = self.soft

        split = self.split

        stakes = self.stakes.to_dict()

        status = self.status

        total: int | None
        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
                "currency": currency,
                "doubles": doubles,
                "forced_cards": forced_cards,
                "index": index,
                "soft": soft,
                "split": split,
                "stakes": stakes,
                "status": status,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.hand_state_stakes import HandStateStakes

        d = dict(src_dict)
        cards = []
        _cards = d.pop("cards")
        for cards_item_data in _cards:

            def _parse_cards_item(data: object) -> None | str:
                if data is None:
                    return data
                return cast(None | str, data)

            cards_item = _parse_cards_item(cards_item_data)

            cards.append(cards_item)

        currency = d.pop("currency")

        doubles = d.pop("doubles")

        forced_cards = cast(list[int], d.pop("forced_cards"))

        index = d.pop("index")

        soft = d.pop("soft")

        split = d.pop("split")

        stakes = HandStateStakes.from_dict(d.pop("stakes"))

        status = d.pop("status")

        def _parse_total(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        total = _parse_total(d.pop("total"))

        hand_state = cls(
            cards=cards,
            currency=currency,
            doubles=doubles,
            forced_cards=forced_cards,
            index=index,
            soft=soft,
            split=split,
            stakes=stakes,
            status=status,
            total=total,
        )

        hand_state.additional_properties = d
        return hand_state

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
