"""Sign up, log in (rate-limited), log out, password reset."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from digests.schedules.next_run import ScheduleError, validate_timezone
from inbox import auth_throttle
from inbox.accounts import SignupError, sign_up
from inbox.forms import EmailAuthenticationForm, throttled_message
from topics.models import Topic


def login_reason(next_url: str) -> str:
    """Why a visitor is asked to log in, from where they were going: following a topic, or
    any other page that needs an account."""
    if not next_url or next_url == settings.LOGIN_REDIRECT_URL:
        return ""
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return ""
    if match.view_name == "topics:follow":
        topic = Topic.objects.listed().filter(slug=match.kwargs.get("slug")).first()
        if topic is not None:
            return _(
                "To follow “%(title)s”, log in or create an account (it takes a few "
                "seconds): its editions will then arrive in your Inbox."
            ) % {"title": topic.title}
    return _("That page is part of an account: log in, or create one, to continue to it.")


def safe_next(request, fallback: str) -> str:
    """The `next` parameter when it points inside this site; never an open redirect."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return fallback


class SignupForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Email"), max_length=254)
    password = forms.CharField(
        label=gettext_lazy("Password"), widget=forms.PasswordInput(render_value=False)
    )
    timezone = forms.CharField(required=False, widget=forms.HiddenInput, initial="UTC")


def _browser_timezone(name: str) -> str:
    """The zone the browser reported, or UTC: the field is filled in by script, not typed, so
    a bad value is not the user's to fix (they can change it in preferences)."""
    try:
        validate_timezone(name)
    except ScheduleError:
        return "UTC"
    return name


def signup(request):
    next_url = safe_next(request, settings.LOGIN_REDIRECT_URL)
    if request.user.is_authenticated:
        return redirect(next_url)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = sign_up(
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password"],
                timezone=_browser_timezone(form.cleaned_data["timezone"]),
                locale=getattr(request, "LANGUAGE_CODE", "en"),
                now=timezone.now(),
            )
        except SignupError as exc:
            for field, errors in exc.errors.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            login(request, user, backend="inbox.auth_backends.EmailBackend")
            if next_url != settings.LOGIN_REDIRECT_URL:
                # Going on to what they came for (following a topic says so itself): one
                # message, not a welcome that points elsewhere as well.
                return redirect(next_url)
            messages.success(request, _("Welcome to Tidings! Create your first subscription."))
            return redirect("digests:new")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url, "reason": login_reason(next_url)},
    )


class RateLimitedLoginView(auth_views.LoginView):
    """Django's login view with the email form; attempts are throttled by the authentication
    backend (inbox/auth_throttle.py), the same throttle as the admin's login."""

    redirect_authenticated_user = True
    authentication_form = EmailAuthenticationForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["reason"] = login_reason(self.get_redirect_url())
        return context


class RateLimitedPasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, at most PASSWORD_RESET_ADDRESS_LIMIT requests per client
    address and PASSWORD_RESET_ACCOUNT_LIMIT per (client address, email address) in the window:
    each one sends a mail, so unlimited requests would make us a mail cannon. Past the second
    limit the answer is the usual neutral page and no mail is sent; other requesters, the
    owner among them, are not affected."""

    def form_valid(self, form):
        refusal = auth_throttle.password_reset_attempt(
            self.request, form.cleaned_data["email"], now=timezone.now()
        )
        if refusal is not None and refusal.scope == auth_throttle.RESET_QUIET_SCOPE:
            return HttpResponseRedirect(self.get_success_url())
        if refusal is not None:
            setattr(self.request, auth_throttle.REQUEST_ATTRIBUTE, refusal)
            form.add_error(None, throttled_message(refusal))
            return self.form_invalid(form)
        return super().form_valid(form)
