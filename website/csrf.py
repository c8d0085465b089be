"""A form refused by the CSRF check (its token missing, forged or expired).

Django calls CSRF_FAILURE_VIEW in place of the page's view, before it. For a view
marked with @renders_csrf_refusal, the failure view calls that view after all, with
the refusal marked on the request. The view sees csrf_refused(request), makes its form
with what was sent as initial values and the refusal as its one error (refused_form)
and renders it with status 403 instead of acting. The page carries a
fresh token, so sending the form again works. Every other view's refused form gets
403_csrf.html, a page in the visitor's language that says what happened.

A class-based view is marked with method_decorator(renders_csrf_refusal, name="dispatch");
a form view (Django's FormView) gets all of it from RendersCsrfRefusal.
"""

from django.shortcuts import render
from django.utils.translation import gettext_lazy

REFUSAL = gettext_lazy(
    "This form has expired or was sent from another site, so nothing was done. "
    "Check it and send it again."
)
# The marks: one on a view that can render its own refusal, one on a refused request.
VIEW_MARK = "renders_csrf_refusal"
REQUEST_MARK = "csrf_refused"


def renders_csrf_refusal(view):
    """Marks a view that, when csrf_refused(request), renders its page with the refusal
    and changes nothing. The mark passes through Django's decorators (functools.wraps)."""
    setattr(view, VIEW_MARK, True)
    return view


def csrf_refused(request) -> bool:
    return getattr(request, REQUEST_MARK, False)


def posted(request) -> dict:
    """What the refused form sent, as a form's initial values: a list for a field sent
    more than once. A password or file field never shows its value anyway."""
    return {
        key: values if len(values) > 1 else values[0]
        for key, values in request.POST.lists()
        if key != "csrfmiddlewaretoken"
    }


def csrf_refusal(form):
    """An unbound form (made with initial=posted(request)) with the refusal as its only
    error. Nothing of it is validated: a form's clean may act, as a login form's checks
    the password and counts a failure."""
    form.cleaned_data = {}  # add_error reads it; an unbound form has none
    form.add_error(None, REFUSAL)
    return form


def refused_form(request, form_class, **kwargs):
    """The form_class made from what the refused request sent, with the refusal."""
    return csrf_refusal(form_class(initial=posted(request), **kwargs))


class RendersCsrfRefusal:
    """For a FormView (Django's auth views too): a refused form comes back with status
    403 and the refusal, made by the view's own form class from what was sent. Put it
    first among the bases, so that nothing of the other bases' post runs (a limit that
    counts forms neither); a post of the view's own class starts with
    `if csrf_refused(request): return self.refusal()`."""

    @renders_csrf_refusal
    def dispatch(self, request, *args, **kwargs):
        return super().dispatch(request, *args, **kwargs)

    def unbound_form(self, **initial):
        """The view's form, not bound to what was sent, so that nothing of it is checked."""
        kwargs = {
            name: value
            for name, value in self.get_form_kwargs().items()
            if name not in ("data", "files")
        }
        return self.get_form_class()(**{**kwargs, "initial": initial})

    def refusal(self):
        form = csrf_refusal(self.unbound_form(**posted(self.request)))
        return self.render_to_response(self.get_context_data(form=form), status=403)

    def post(self, request, *args, **kwargs):
        if csrf_refused(request):
            return self.refusal()
        return super().post(request, *args, **kwargs)


def csrf_failure(request, reason: str = ""):
    match = request.resolver_match
    view = match.func if match is not None else None
    if request.method != "POST" or not getattr(view, VIEW_MARK, False):
        return render(request, "403_csrf.html", status=403)
    setattr(request, REQUEST_MARK, True)
    # What Django's CsrfViewMiddleware sets on a request it accepts: without it, a view's
    # own csrf_protect (Django's login and password views have one) refuses it again.
    request.csrf_processing_done = True
    return view(request, *match.args, **match.kwargs)
