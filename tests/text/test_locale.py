"""Choosing the language (?lang, cookie, Accept-Language), the switch, digits, translation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from babel.support import Translations
from flask import Flask, session
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import IllegalError, Problem
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import check_contracts
from scorekeeper.rules.validation import validate_captures
from scorekeeper.text import locale as i18n
from scorekeeper.text.messages import ENGLISH, translate_error, translate_problem
from scorekeeper.web import language


def locale_for(app: Flask, path: str = "/", **headers: str) -> tuple[str, str, dict[str, Any]]:
    with app.test_request_context(path, headers=headers):
        app.preprocess_request()
        context = language.template_context()
        return i18n.current_locale(), i18n.text_direction(), context


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("ar-JO,ar;q=0.9,en;q=0.8", "ar"),
        ("pt-BR", "pt"),
        ("fr", "en"),
        ("fr-FR,fr;q=0.9,es;q=0.5", "es"),
        ("ru-RU", "ru"),
        ("it", "it"),
        ("*", "en"),
        ("", "en"),
    ],
)
def test_accept_language_best_match(app: Flask, accept: str, expected: str) -> None:
    assert locale_for(app, "/", **{"Accept-Language": accept})[0] == expected


def test_explicit_lang_beats_cookie_beats_accept_language(app: Flask) -> None:
    arabic = {"Accept-Language": "ar"}
    assert locale_for(app, "/?lang=es", Cookie="lang=ru", **arabic)[0] == "es"
    assert locale_for(app, "/", Cookie="lang=ru", **arabic)[0] == "ru"
    assert locale_for(app, "/?lang=xx", Cookie="lang=zz", **arabic)[0] == "ar"
    assert locale_for(app, "/?lang=pt-BR")[0] == "pt"


def test_arabic_is_right_to_left(app: Flask) -> None:
    locale, direction, context = locale_for(app, "/?lang=ar")
    assert (locale, direction) == ("ar", "rtl")
    assert context["text_direction"] == "rtl" and context["current_locale"] == "ar"
    assert locale_for(app, "/?lang=ru")[1] == "ltr"
    assert {"code": "ar", "name": "العربية"} in context["supported_locales"]
    assert [loc["code"] for loc in context["supported_locales"]] == [
        "en",
        "ar",
        "es",
        "it",
        "pt",
        "ru",
    ]


def test_explicit_lang_is_remembered_for_a_year(client: FlaskClient) -> None:
    response = client.get("/?lang=ar")
    cookie = response.headers.get("Set-Cookie", "")
    assert cookie.startswith("lang=ar;")
    assert "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Accept-Language" in response.headers.get("Vary", "")
    assert "Set-Cookie" not in client.get("/").headers  # the cookie is sent back, not reset
    assert "Set-Cookie" not in client.get("/?lang=ar").headers


def test_lang_switch_goes_back_to_the_page(client: FlaskClient) -> None:
    response = client.get("/lang/ar?next=/games/new%3Fx%3D1")
    assert response.status_code == 302
    assert response.headers["Location"] == "/games/new?x=1"
    assert response.headers["Set-Cookie"].startswith("lang=ar;")
    assert client.get("/lang/ar", headers={"Referer": "http://localhost/help"}).headers[
        "Location"
    ] in ("/help", "http://localhost/help")


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x", ""]
)
def test_lang_switch_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    response = client.get("/lang/es", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_unknown_language_is_not_found(client: FlaskClient) -> None:
    assert client.get("/lang/xx").status_code == 404
    assert client.get("/digits/roman").status_code == 404


def test_lang_switch_by_post_needs_the_csrf_token(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert client.post("/lang/ru", data={"next": "/help"}).status_code == 400
    with app.test_request_context():
        token = generate_csrf()
        saved = dict(session)
    with client.session_transaction() as stored:
        stored.update(saved)
    response = client.post("/lang/ru", data={"next": "/help", "csrf_token": token})
    assert response.status_code == 303
    assert response.headers["Location"] == "/help"
    assert response.headers["Set-Cookie"].startswith("lang=ru;")


def test_digits_setting(app: Flask, client: FlaskClient) -> None:
    assert client.get("/?digits=arab").headers["Set-Cookie"].startswith("digits=arab;")
    with app.test_request_context("/?lang=ar"):
        assert i18n.current_digits() == "latn"  # the default, in Arabic too
        assert i18n.format_number(-75) == "−75"
    with app.test_request_context("/", headers={"Cookie": "digits=arab"}):
        assert i18n.format_number(-1250) == "−١٢٥٠"  # U+2212, readable
        assert language.template_context()["digits"] == "arab"
    response = client.get("/digits/arab?next=/help")
    assert response.headers["Location"] == "/help"
    assert response.headers["Set-Cookie"].startswith("digits=arab;")


# --- (d) translating problems ------------------------------------------------------------


def a_problem() -> Problem:
    try:
        check_contracts(RuleSet(), [])
    except IllegalError as error:
        return error.problems[0]
    raise AssertionError("no problem")


REPEATED = Problem(
    "contract_repeated",
    "Queens is named twice; a deal plays each contract once.",
    "R2",
    "contracts",
    {"contract": "queens", "label": {"part": "contract.queens", "params": {}}},
)


class FakeArabic:
    """A catalogue with two entries, for what a filled-in one would do."""

    TEXTS = {
        "%(label)s is named twice; a deal plays each contract once.": "%(label)s مذكورة مرتين.",
        "Queens": "بنات",
        "Choose the contract of this deal.": "%(missing)s",  # a broken translation
    }

    def gettext(self, message: str) -> str:
        return self.TEXTS.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


def test_translate_problem_is_english_under_en(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        app.preprocess_request()
        assert translate_problem(REPEATED) == REPEATED.message


def test_a_missing_translation_falls_back_to_english(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An Arabic catalogue without these entries (the real one will be filled in).
    monkeypatch.setattr("flask_babel.Domain.get_translations", lambda self: Translations())
    with app.test_request_context("/?lang=ar"):
        app.preprocess_request()
        assert translate_problem(REPEATED) == REPEATED.message
        assert translate_error(IllegalError([REPEATED])) == [
            {
                "rule": "R2",
                "field": "contracts",
                "message": REPEATED.message,
                "code": "contract_repeated",
            }
        ]


def test_translated_sentence_and_its_parts() -> None:
    assert translate_problem(REPEATED, FakeArabic()) == "بنات مذكورة مرتين."


def test_fallbacks_to_the_engine_message() -> None:
    broken = a_problem()
    assert translate_problem(broken, FakeArabic()) == broken.message  # bad placeholder
    unknown = Problem("no_such_code", "Something new.", None, None, {})
    assert translate_problem(unknown, FakeArabic()) == "Something new."
    incomplete = Problem("contract_repeated", REPEATED.message, "R2", None, {})
    assert translate_problem(incomplete, FakeArabic()) == REPEATED.message
    stale = Problem("contract_repeated", "Some other words.", "R2", None, REPEATED.params)
    assert translate_problem(stale, FakeArabic()) == "Some other words."
    assert translate_problem(REPEATED, ENGLISH) == REPEATED.message


def test_contract_labels_go_through_the_catalogue(app: Flask) -> None:
    from scorekeeper.text.messages import CONTRACT_LABELS, MESSAGES

    for contract in Contract:
        assert MESSAGES[f"contract.{contract.value}"] == CONTRACT_LABELS[contract]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("٠١٢٣٤٥٦٧٨٩", "0123456789"),  # Arabic-Indic
        ("۰۱۲۳۴۵۶۷۸۹", "0123456789"),  # Eastern Arabic-Indic (Persian, Urdu keyboards)
        ("−٧٥", "-75"),  # the pages' minus sign
        ("٠٫٧٥", "0.75"),  # the Arabic decimal separator
        ("12", "12"),
        ("१२", "१२"),  # other scripts' digits are left for the caller to refuse
    ],
)
def test_typed_digits_are_read_as_latin_ones(typed: str, read: str) -> None:
    assert i18n.latin_digits(typed) == read


def test_r5_an_engines_problem_is_said_in_the_pages_digits(app: Flask) -> None:
    """Under the Arabic-Indic setting, the sentence's numbers, its own ("13") and the
    engine's, are Arabic-Indic; its card codes and rule numbers stay as they are written."""
    caps = Captures(diamonds=(5, 4, 3, 2))
    with pytest.raises(IllegalError) as refused:
        validate_captures(RuleSet(), [Contract.DIAMONDS], caps, ["Rana", "Sami", "Omar", "Lina"])
    problem = refused.value.problems[0]
    with app.test_request_context("/?digits=arab"):
        said = translate_problem(problem)
    with app.test_request_context("/"):
        latin = translate_problem(problem)
    assert said.startswith("Diamonds must add up to ١٣; these add up to ١٤ ("), said
    assert "٥" in said and "5" not in said.replace("\u2068", "")
    assert latin.replace("\u2068", "").replace("\u2069", "") == problem.message
