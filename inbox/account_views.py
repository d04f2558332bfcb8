"""Sign up, log in (rate-limited), log out, password reset."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from digests.schedule import ScheduleError, validate_timezone
from inbox.accounts import (
    SignupError,
    clear_login_failures,
    login_blocked,
    record_login_failure,
    sign_up,
)
from inbox.forms import EmailAuthenticationForm
from topics.models import Topic


def client_ip(request) -> str:
    return request.META.get("REMOTE_ADDR", "")


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
    """Django's login view, refusing further attempts after repeated failures per IP and per
    account for a while (LOGIN_FAILURE_LIMIT in LOGIN_FAILURE_WINDOW_SECONDS)."""

    redirect_authenticated_user = True
    authentication_form = EmailAuthenticationForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["reason"] = login_reason(self.get_redirect_url())
        return context

    def post(self, request, *args, **kwargs):
        email = request.POST.get("username", "")
        if login_blocked(client_ip(request), email):
            form = self.get_form()
            form.errors.clear()
            form.add_error(
                None,
                _("Too many failed attempts. Wait a few minutes, or reset your password."),
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        record_login_failure(client_ip(self.request), self.request.POST.get("username", ""))
        return super().form_invalid(form)

    def form_valid(self, form):
        clear_login_failures(client_ip(self.request), self.request.POST.get("username", ""))
        return super().form_valid(form)
