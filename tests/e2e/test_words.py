"""What the deal forms say as they are filled in: one clear sentence for one slip, and a count's
noun in its singular when the count is one."""

from __future__ import annotations

from .conftest import Phone


def test_typing_119_card_points_says_one_thing(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.go("/matches/1/deal")
    phone.type("#points0", "119")
    errors = phone.page.locator("fieldset.points .error")
    errors.first.wait_for()
    assert errors.all_inner_texts() == [
        "A side cannot capture 119 card points: any total from 0 to 120 except 1 and 119."
    ]
    assert phone.page.input_value("#points1") == ""
    phone.page.fill("#points0", "")
    phone.type("#points0", "70")
    assert phone.page.input_value("#points1") == "50"
    assert errors.count() == 0


def test_a_one_card_deal_s_forbidden_bid_is_explained_in_the_singular(phone: Phone) -> None:
    phone.start_match("pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="1", first_dealer="2")
    phone.tap(".trump-start a.primary")
    phone.choose("bids-0", 0)
    phone.choose("bids-1", 0)
    phone.page.locator("label.choice:has(input[name='bids-2'][value='1'])").tap(force=True)
    said = phone.page.locator("[data-errors-for='bids-2'] .error")
    assert said.inner_text() == (
        "Carmen deals and bids last, and may not bid 1: the bids would add up to the 1 card in "
        "hand, and everyone could make their bid."
    )


def test_one_card_point_is_said_in_the_singular(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.go("/matches/1/deal")
    phone.type("#points1", "1")
    said = phone.page.locator("fieldset.points .error")
    said.first.wait_for()
    assert said.all_inner_texts() == ["A side cannot capture 1 card point: any total from 0 to 120 except 1 and 119."]
