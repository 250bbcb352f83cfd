"""The model size and N_d an answer's worked GB figures are read against."""
from __future__ import annotations

import pytest

from autograde.veto.cues import cue_book
from autograde.veto.worked_setting import WorkedSetting


@pytest.mark.parametrize(
    ("text", "billions", "ranks"),
    [
        ("For a 7B model on 8 GPUs:", 7.0, 8),
        ("Ψ = 7×10^9, N_d = 64", 7.0, 64),
        ("70 亿参数的模型放在 16 张卡上", 7.0, 16),
        ("a 70B model, dp = 1024", 70.0, 1024),
        ("7B on 8 GPUs; later 64 GPUs", 7.0, 64),
        ("no setting here", None, None),
    ],
)
def test_setting_is_the_last_size_and_count_named(text: str, billions: float | None, ranks: int | None) -> None:
    book = cue_book()
    setting = WorkedSetting().updated(book, book.prepare_both(text)[1])
    assert (setting.billions, setting.ranks) == (billions, ranks)


def test_setting_carries_what_a_sentence_does_not_name() -> None:
    book = cue_book()
    earlier = WorkedSetting(7.0, 8)
    assert earlier.updated(book, "⟨zero2⟩ 是 14 gb。") == earlier
