"""The password pages: change it when signed in, reset it by email (Django's views in the
site's templates). The reset answers alike whether the email has an account or not."""

import re

import pytest
from django.core import mail
from django.test import Client

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "lentejas-con-chorizo-2026"
RESET_LINK = re.compile(r"http://testserver(/accounts/password/reset/[^\s]+)")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def _login(email: str, password: str) -> Client:
    client = Client()
    client.post("/accounts/login/", {"username": email, "password": password})
    return client


def test_it_changes_the_password_of_a_signed_in_person(client):
    person = UserFactory(email="ana@example.com")
    client.force_login(person)
    assert 'href="/accounts/password/change/"' in client.get("/account/tokens").content.decode()

    wrong = client.post(
        "/accounts/password/change/",
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    changed = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert wrong.status_code == 200
    assert "Su contraseña antigua es incorrecta" in wrong.content.decode()
    assert changed["Location"] == "/accounts/password/change/done/"
    assert "Tu contraseña ha cambiado" in client.get(changed["Location"]).content.decode()
    assert _logged_in(client)  # Django keeps this session (update_session_auth_hash)
    assert _logged_in(_login("ana@example.com", NEW_PASSWORD))
    assert not _logged_in(_login("ana@example.com", PASSWORD))


def test_it_sends_people_who_are_not_signed_in_to_login_for_a_password_change(client):
    response = client.get("/accounts/password/change/")

    assert response["Location"] == "/accounts/login/?next=/accounts/password/change/"


def test_it_resets_a_password_through_the_link_of_its_mail(client):
    UserFactory(email="ana@example.com")
    assert 'href="/accounts/password/reset/"' in client.get("/accounts/login/").content.decode()

    sent = client.post("/accounts/password/reset/", {"email": "ANA@example.com"})

    assert sent["Location"] == "/accounts/password/reset/sent/"
    (message,) = mail.outbox
    assert message.to == ["ana@example.com"]
    assert message.subject == "Una contraseña nueva para el Directorio de logos"
    opened = client.get(RESET_LINK.search(message.body).group(1), follow=True)
    form_path = opened.redirect_chain[-1][0]
    assert form_path.endswith("/set-password/")  # the token left the address bar
    done = client.post(form_path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done["Location"] == "/accounts/password/reset/done/"
    assert "Tu contraseña nueva está guardada" in client.get(done["Location"]).content.decode()
    assert _logged_in(_login("ana@example.com", NEW_PASSWORD))
    assert client.get(RESET_LINK.search(message.body).group(1)).context["validlink"] is False


def test_it_does_not_say_whether_a_reset_email_has_an_account():
    UserFactory(email="ana@example.com")
    UserFactory(email="pendiente@example.com", is_active=False)  # a sign-up not confirmed
    answers = []
    for email in ["ana@example.com", "nadie@example.com", "pendiente@example.com"]:
        visitor = Client()
        sent = visitor.post("/accounts/password/reset/", {"email": email})
        page = visitor.get(sent["Location"])
        answers.append((sent.status_code, sent["Location"], CSRF.sub("", page.content.decode())))

    assert answers[0] == answers[1] == answers[2]
    assert "Si el correo que has escrito tiene una cuenta" in answers[0][2]
    assert [message.to for message in mail.outbox] == [["ana@example.com"]]


def test_it_refuses_a_changed_reset_link(client):
    UserFactory(email="ana@example.com")
    client.post("/accounts/password/reset/", {"email": "ana@example.com"})
    link = RESET_LINK.search(mail.outbox[0].body).group(1)

    response = client.get(link[:-2] + ("a/" if link[-2] != "a" else "b/"))

    assert response.status_code == 200
    assert response.context["validlink"] is False
    assert "Este enlace no sirve" in response.content.decode()
    assert '<form method="post" class="stack"' not in response.content.decode()
