"""Our own words: no pack shares a run of six or more words with its seed.

tests/content/own_words.py says how texts are read and compared;
`python -m tests.content.own_words` reports the longest run of every pack.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from own_words import (
    LIMIT,
    NUMBER,
    Passage,
    chapter_passages,
    localized_strings,
    longest_run,
    pack_text,
    seed_words,
    seeded_packs,
    seeds_folder,
    shared_runs,
    words,
)

SEEDS = seeds_folder()
PACKS = seeded_packs()


def passage(text: str, where: str = "x") -> Passage:
    return Passage("f.yaml", where, words(text))


# ----- the comparison itself --------------------------------------------------------------------


def test_words_ignore_case_yo_punctuation_quotes_and_dashes() -> None:
    assert words("«Ёлка» — ЗЕЛЁНАЯ, (очень)! Кто-то… \"да\"") == (
        "елка", "зеленая", "очень", "кто", "то", "да",
    )


def test_every_number_is_one_word() -> None:
    assert words("урон 2, скорость 10 (3)") == ("урон", NUMBER, "скорость", NUMBER, NUMBER)


def test_six_shared_words_are_a_run_and_five_are_not() -> None:
    seed = words("Раз два три четыре пять шесть семь восемь.")
    five = passage("Ноль, раз: два — три, четыре пять! Девять.")
    six = passage("Ноль. Раз, два, три, четыре, пять, шесть; девять.")
    assert shared_runs([five], seed) == []
    [run] = shared_runs([six], seed)
    assert run.words == ("раз", "два", "три", "четыре", "пять", "шесть")
    assert str(run) == "f.yaml: x: 6 words shared with the seed: «раз два три четыре пять шесть»"


def test_overlapping_windows_make_one_run_and_separate_ones_two() -> None:
    seed = words("а б в г д е ж з и к л м н о п")
    text = passage("а б в г д е ж з ы л м н о п р")
    runs = shared_runs([text], seed)
    assert [r.words for r in runs] == [tuple("абвгдежз")]
    text = passage("а б в г д е ы к л м н о п")
    assert [len(r.words) for r in shared_runs([text], seed)] == [6, 6]


def test_the_longest_run_is_contiguous_in_the_seed() -> None:
    seed = words("один два три четыре. пять шесть семь.")
    text = [passage("три четыре пять шесть семь ноль"), passage("один два ноль")]
    run = longest_run(text, seed)
    assert run is not None and run.words == ("три", "четыре", "пять", "шесть", "семь")
    assert longest_run([passage("ноль")], seed) is None


def test_localized_strings_are_found_at_any_depth_with_their_path() -> None:
    data = [
        {"id": "rat", "name": {"ru": "Крыса", "en": "Rat"}, "speed": 2,
         "special": [{"id": "bite", "text": {"ru": "Кусает"}},
                     {"requires": {"stat": "luck", "id": "x"}}]},
    ]
    found = list(localized_strings(data, ("ru", "en")))
    assert found == [
        (("rat", "name"), "ru", "Крыса"),
        (("rat", "name"), "en", "Rat"),
        (("rat", "special", "bite", "text"), "ru", "Кусает"),
    ]


def test_chapters_drop_markup_expand_words_and_end_at_block_references(tmp_path: Path) -> None:
    ru = tmp_path / "rules" / "ru"
    ru.mkdir(parents=True)
    (ru / "01-a.md").write_text(
        "# Глава {#a}\n\n**Жирный** {{ name(\"rat\") }} бежит {{ stat(\"rat\", \"speed\") }} "
        "клетки {{ see(\"a\") }}.\n\n{{ table(\"loot\") }}\n\n> Дальше [ссылка](http://x).\n",
        "utf-8",
    )
    entities = {"rat": {"name": {"ru": "Крыса", "en": "Rat"}}}
    found = [(p.where, p.words) for p in chapter_passages(tmp_path, entities)]
    assert found == [
        ("01-a: Глава", ("глава", "жирный", "крыса", "бежит", NUMBER, "клетки")),
        ("01-a: Глава", ("дальше", "ссылка")),
    ]


# ----- the packs --------------------------------------------------------------------------------


def test_some_pack_names_a_seed() -> None:
    assert PACKS, "no pack in content/ names a seed"


@pytest.mark.skipif(SEEDS is None, reason="no shared/seeds folder beside the repository")
@pytest.mark.parametrize(("pack", "seed"), PACKS, ids=[p for p, _ in PACKS])
def test_no_run_of_six_words_is_copied_from_the_seed(pack: str, seed: str) -> None:
    assert SEEDS is not None
    text = pack_text(pack, seed, SEEDS)
    assert text.seed.is_file(), f"{pack}/pack.yaml names the seed {seed}, not in {SEEDS}"
    seed_seq = seed_words(text.seed)
    assert len(seed_seq) > 100 and len(text.passages) > 10
    runs = shared_runs(text.passages, seed_seq)
    best = longest_run(text.passages, seed_seq)
    print(f"{pack}: longest shared run: {best}")
    assert not runs, f"{len(runs)} run(s) of {LIMIT}+ words copied from the seed:\n" + "\n".join(
        map(str, runs)
    )
