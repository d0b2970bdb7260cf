"""procura.db.pipeline's placeholder conversion: psycopg's query syntax to Postgres's ``$n``, nothing pasted."""

from __future__ import annotations

import psycopg
import pytest

from procura.db.pipeline import _text_arrays, convert


def test_named_placeholders_bind_once_each_in_order_of_first_use() -> None:
    converted = convert("select %(b)s, %(a)s, %(b)s::text")
    assert converted.text == b"select $1, $2, $1::text"
    assert converted.names == ("b", "a") and converted.positional == 0


def test_positional_placeholders_and_literal_percent_signs() -> None:
    converted = convert("select %s, %s where x like '10%%'")
    assert converted.text == b"select $1, $2 where x like '10%'"
    assert converted.names == () and converted.positional == 2


@pytest.mark.parametrize("sql", ["select %d", "select 100%", "select %(a)s, %s", "select %(a)x"])
def test_anything_else_after_a_percent_sign_is_refused(sql: str) -> None:
    with pytest.raises(psycopg.ProgrammingError):
        convert(sql)


def test_lists_of_strings_are_sent_as_quoted_array_literals() -> None:
    arrays = _text_arrays(["a", ["x", 'q"uote', "back\\slash", "NULL", ""], [], None, 7])
    assert arrays == {1: b'{"x","q\\"uote","back\\\\slash","NULL",""}', 2: b"{}"}


def test_other_lists_are_left_to_psycopg() -> None:
    assert _text_arrays([[1, 2], ["a", None], ["nul\x00"], [["nested"]]]) is None
