"""The page of a form refused by the CSRF check, in the visitor's language.

Django's own is English and technical; this one says what happened and what to do.
Nothing was done with the form: the check runs before the view.
"""

from django.shortcuts import render


def csrf_failure(request, reason: str = ""):
    return render(request, "403_csrf.html", status=403)
