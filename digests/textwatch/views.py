"""Console pages: text-change watches (add with a live preview, history with diffs) and the
reader's Apprise targets. Thin callers of watches/service.py and watches/apprise.py."""

from __future__ import annotations

import itertools

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.api.errors import ServiceRefusal
from digests.textwatch import apprise, service
from digests.textwatch.diffing import diff_texts
from digests.textwatch.models import AppriseTarget, TextWatch
from ingest.watch.views import INTERVAL_CHOICES

HISTORY_SHOWN = 20


class TextWatchForm(forms.Form):
    url = forms.CharField(label=gettext_lazy("Page address"), max_length=2048)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200, required=False)
    selector_kind = forms.ChoiceField(
        label=gettext_lazy("Watch"),
        choices=TextWatch.SelectorKind.choices,
        required=False,
    )
    selector = forms.CharField(
        label=gettext_lazy("Selector"),
        max_length=500,
        required=False,
        help_text=gettext_lazy("A CSS selector (#price, .changelog li) or an XPath expression."),
    )
    render = forms.ChoiceField(
        label=gettext_lazy("Fetch"),
        choices=[("http", gettext_lazy("Directly")), ("browser", gettext_lazy("With a browser"))],
        required=False,
    )
    ignore_text = forms.CharField(
        label=gettext_lazy("Ignore lines containing"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text=gettext_lazy("One text per line."),
    )
    ignore_regex = forms.CharField(
        label=gettext_lazy("Ignore lines matching"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text=gettext_lazy("One regular expression per line."),
    )
    ignore_numbers = forms.BooleanField(label=gettext_lazy("Ignore numbers"), required=False)
    trigger = forms.ChoiceField(
        label=gettext_lazy("Tell me when"), choices=TextWatch.Trigger.choices, required=False
    )
    trigger_text = forms.CharField(label=gettext_lazy("Text"), max_length=200, required=False)
    trigger_number = forms.CharField(label=gettext_lazy("Number"), max_length=30, required=False)
    check_interval_minutes = forms.TypedChoiceField(
        label=gettext_lazy("Check the page"), choices=INTERVAL_CHOICES, coerce=int, initial=60
    )
    notify = forms.MultipleChoiceField(
        label=gettext_lazy("Tell me"),
        choices=[
            ("inbox", gettext_lazy("In my Inbox")),
            ("email", gettext_lazy("By email too")),
            ("push", gettext_lazy("As a push notification too")),
        ],
        initial=["inbox"],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    start_at = forms.DateTimeField(label=gettext_lazy("Start"), required=False)
    end_at = forms.DateTimeField(label=gettext_lazy("End"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        minutes = self.initial.get("check_interval_minutes")
        field = self.fields["check_interval_minutes"]
        if minutes and minutes not in {value for value, _label in field.choices}:
            # Set through the API to a length no choice has: editing keeps it unless changed.
            field.choices = [*field.choices, (minutes, _("Every %(n)d minutes") % {"n": minutes})]

    @classmethod
    def initial_for(cls, watch: TextWatch) -> dict:
        initial = service.settings_of(watch)
        for field in ("ignore_text", "ignore_regex"):
            initial[field] = "\n".join(initial[field])
        return initial

    def data_for_service(self) -> dict:
        data = dict(self.cleaned_data)
        data["notify"] = ["inbox", *[c for c in data["notify"] if c != "inbox"]]
        for field in ("ignore_text", "ignore_regex"):
            data[field] = [line for line in data[field].splitlines() if line.strip()]
        return data


class AppriseTargetForm(forms.Form):
    url = forms.CharField(
        label=gettext_lazy("Apprise URL"),
        max_length=2048,
        help_text=gettext_lazy("For example ntfy://ntfy.sh/my-topic or tgram://bot-token/chat-id."),
    )
    label = forms.CharField(label=gettext_lazy("Label"), max_length=100, required=False)


def _show_refusal(form, exc: ServiceRefusal) -> None:
    for field, message in exc.errors.items():
        form.add_error(field if field in form.fields else None, message)


def _submit(request, form, save):
    """A watch form's POST: the preview (nothing saved) or `save(data)`. Returns the preview
    and what `save` returned (None when refused: the refusals are on the form's fields)."""
    if request.method != "POST" or not form.is_valid():
        return None, None
    try:
        if "preview" in request.POST:
            return service.preview(form.data_for_service()), None
        return None, save(form.data_for_service())
    except ServiceRefusal as exc:  # the plan's limits too
        _show_refusal(form, exc)
    return None, None


@login_required
def index(request):
    form = TextWatchForm(request.POST or None, prefix="watch")
    preview, watch = _submit(
        request, form, lambda data: service.add_watch(request.user, data, now=timezone.now())
    )
    if watch is not None:
        messages.success(request, _("Watching “%(name)s”.") % {"name": watch.name})
        return redirect("watches:detail", watch_id=watch.pk)
    if request.htmx and "preview" in request.POST:
        return render(request, "watches/_preview.html", {"form": form, "preview": preview})
    watches = TextWatch.objects.filter(owner=request.user).order_by("name", "id")
    return render(
        request,
        "watches/index.html",
        {
            "form": form,
            "preview": preview,
            "watches": watches,
            "targets": AppriseTarget.objects.filter(owner=request.user),
            "target_form": AppriseTargetForm(prefix="target"),
        },
    )


@login_required
def detail(request, watch_id: int):
    watch = get_object_or_404(TextWatch, pk=watch_id, owner=request.user)
    targets = list(AppriseTarget.objects.filter(owner=request.user))
    if request.method == "POST" and watch.notifier_id:
        chosen = [int(v) for v in request.POST.getlist("targets") if v.isdigit()]
        try:
            apprise.set_routes(request.user, watch.notifier, chosen)
            messages.success(request, _("Notification targets saved."))
        except ServiceRefusal as exc:
            messages.error(request, exc.message)
        return redirect("watches:detail", watch_id=watch.pk)
    snapshots = list(watch.snapshots.order_by("-checked_at", "-id")[: HISTORY_SHOWN + 1])
    history = [
        {
            "snapshot": newer,
            # A baseline follows an edit of the settings: not a change of the page.
            "diff": None if newer.baseline else diff_texts(older.text, newer.text).as_html(),
        }
        for newer, older in itertools.pairwise(snapshots)
    ]
    routed = set(
        watch.notifier.apprise_routes.values_list("target_id", flat=True) if watch.notifier else []
    )
    return render(
        request,
        "watches/detail.html",
        {
            "watch": watch,
            "history": history,
            "current": snapshots[0] if snapshots else None,
            "targets": targets,
            "routed": routed,
        },
    )


@login_required
def edit(request, watch_id: int):
    watch = get_object_or_404(
        TextWatch.objects.select_related("notifier"), pk=watch_id, owner=request.user
    )
    form = TextWatchForm(
        request.POST or None, prefix="watch", initial=TextWatchForm.initial_for(watch)
    )
    preview, saved = _submit(
        request, form, lambda data: service.update_watch(watch, data, now=timezone.now())
    )
    if saved is not None:
        messages.success(request, _("Changes saved."))
        return redirect("watches:detail", watch_id=watch.pk)
    if request.htmx and "preview" in request.POST:
        return render(request, "watches/_preview.html", {"form": form, "preview": preview})
    return render(request, "watches/edit.html", {"form": form, "preview": preview, "watch": watch})


@login_required
def change_state(request, watch_id: int, action: str):
    """Pause, resume or delete (the page asks before deleting)."""
    watch = get_object_or_404(TextWatch, pk=watch_id, owner=request.user)
    if request.method != "POST":
        return redirect("watches:detail", watch_id=watch.pk)
    if action == "delete":
        service.delete_watch(watch, now=timezone.now())
        messages.success(
            request,
            _("Stopped watching “%(name)s”. The changes already told stay in your Inbox.")
            % {"name": watch.name},
        )
        return redirect("watches:index")
    if action == "pause":
        service.pause_watch(watch)
        messages.success(request, _("Paused: no checks until you resume."))
    else:
        service.resume_watch(watch, now=timezone.now())
        messages.success(request, _("Resumed."))
    return redirect("watches:detail", watch_id=watch.pk)


@login_required
def add_target(request):
    form = AppriseTargetForm(request.POST or None, prefix="target")
    if request.method == "POST" and form.is_valid():
        try:
            apprise.add_target(
                request.user,
                url=form.cleaned_data["url"],
                label=form.cleaned_data["label"],
                now=timezone.now(),
            )
            messages.success(request, _("Notification target added."))
        except ServiceRefusal as exc:
            messages.error(request, exc.message)
    elif request.method == "POST":
        messages.error(request, _("Enter an Apprise URL."))
    return redirect("watches:index")


@login_required
def test_target(request, target_id: int):
    target = get_object_or_404(AppriseTarget, pk=target_id, owner=request.user)
    if request.method == "POST":
        error = apprise.send_test(target)
        if error:
            messages.error(request, _("The test was not sent: %(error)s") % {"error": error})
        else:
            messages.success(request, _("Test sent to %(label)s.") % {"label": target.label})
    return redirect("watches:index")
