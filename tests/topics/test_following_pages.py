"""Following a topic as people experience it: the count moves at once, the owner sees owner
actions, one message after a follow, and the login page says why it is asked for."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from digests.models import Subscription
from digests.subscriptions.service import soft_delete
from tests.conftest import api_client_for
from tests.topics.test_services import make_edition, published
from topics import following
from topics.models import Topic


@pytest.fixture
def topic(alice, now):
    topic = published(alice, now, title="Databases Daily")
    make_edition(topic, now)
    return topic


def follower_count(topic) -> int:
    return Topic.objects.get(pk=topic.pk).follower_count


def followers_shown(client, topic) -> str:
    html = client.get(topic.get_absolute_url()).content.decode()
    return re.search(r"(\d+) followers?", html).group(0)


def test_the_count_moves_when_someone_follows_and_unfollows(
    bob, topic, now, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        subscription = following.follow(bob, topic, now=now)
    assert follower_count(topic) == 1
    with django_capture_on_commit_callbacks(execute=True):
        following.follow(bob, topic, now=now)  # following twice is one follow
    assert follower_count(topic) == 1
    with django_capture_on_commit_callbacks(execute=True):
        soft_delete(subscription, now=now)  # unfollowing is deleting the subscription
    assert follower_count(topic) == 0


def test_an_unfollow_through_the_api_counts_too(
    bob, topic, now, django_capture_on_commit_callbacks
):
    api = api_client_for(bob)
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(f"/api/v1/topics/{topic.slug}/follow", format="json")
    assert created.status_code in (200, 201)
    assert follower_count(topic) == 1
    with django_capture_on_commit_callbacks(execute=True):
        api.delete(f"/api/v1/subscriptions/{Subscription.objects.get(owner=bob).pk}")
    assert follower_count(topic) == 0


def test_visitors_see_the_new_count_without_waiting_for_the_cache(
    client, bob, topic, now, django_capture_on_commit_callbacks
):
    assert followers_shown(client, topic) == "0 followers"  # now cached for visitors
    with django_capture_on_commit_callbacks(execute=True):
        following.follow(bob, topic, now=now)
    assert followers_shown(client, topic) == "1 follower"


def test_the_owner_sees_owner_actions_and_others_follow_and_report(client, alice, bob, topic):
    client.force_login(alice)
    mine = client.get(topic.get_absolute_url()).content.decode()
    assert reverse("topics:edit", args=[topic.slug]) in mine
    assert reverse("digests:detail", args=[topic.published_from_id]) in mine
    assert reverse("topics:follow", args=[topic.slug]) not in mine
    assert reverse("topics:report", args=[topic.slug]) not in mine
    assert reverse("topics:fork", args=[topic.slug]) not in mine
    client.force_login(bob)
    theirs = client.get(topic.get_absolute_url()).content.decode()
    assert reverse("topics:follow", args=[topic.slug]) in theirs
    assert reverse("topics:report", args=[topic.slug]) in theirs
    assert reverse("topics:edit", args=[topic.slug]) not in theirs


def test_a_visitor_who_signs_up_to_follow_gets_one_message(client, topic):
    follow_url = reverse("topics:follow", args=[topic.slug])
    login = client.post(follow_url)
    assert login["Location"].startswith(reverse("login"))
    page = client.get(login["Location"]).content.decode()
    assert "To follow “Databases Daily”, log in or create an account" in page
    signup = client.get(f"{reverse('signup')}?next={follow_url}").content.decode()
    assert "To follow “Databases Daily”" in signup
    response = client.post(
        reverse("signup"),
        {
            "email": "dana@example.com",
            "password": "correct horse battery staple",
            "next": follow_url,
        },
        follow=True,
    )
    shown = [str(m) for m in get_messages(response.wsgi_request)] or re.findall(
        r'<li class="message[^"]*">([^<]*)</li>', response.content.decode()
    )
    assert shown == ["You follow Databases Daily. Its next editions arrive in your Inbox."]
    assert Subscription.objects.get(owner__email="dana@example.com").followed_topic == topic


def test_the_login_page_explains_itself_only_when_sent_there(client):
    assert 'class="notice"' not in client.get(reverse("login")).content.decode()
    sent = client.get(f"{reverse('login')}?next=/subscriptions/").content.decode()
    assert "That page is part of an account: log in, or create one, to continue to it." in sent


def test_a_failed_login_speaks_of_the_email_address(client, alice):
    response = client.post(reverse("login"), {"username": "alice@example.com", "password": "nope"})
    body = response.content.decode()
    assert "This email address and password do not match an account." in body
    assert "username" not in body.lower().replace('name="username"', "").replace("id_username", "")
