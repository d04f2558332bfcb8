"""An assistant's whole exchange over Streamable HTTP with the SDK's own client, against the live
server: read the latest brief, search the Inbox, save an item, create a subscription from a
plain-language topic (confirmed), preview it, run it (confirmed) and read what it delivered."""

from __future__ import annotations

from digests.models import Run, Subscription
from inbox.models import UserContentState
from tests.conftest import TESTDATA
from tests.factories import add_item
from tests.inbox.assistants.conftest import run_client, token_of

ARTICLE = (TESTDATA / "ingest" / "testdata" / "extraction" / "article.html").read_bytes()


def test_a_full_exchange_reads_searches_saves_creates_previews_and_runs(
    mcp_url, briefs, alice, now
):
    add_item("Heat pumps: a field test in Norway", now=now, age_hours=3, description="Heat pumps.")
    add_item("Heat pump prices fall in 2026", now=now, age_hours=4, description="Heat pumps.")
    token = token_of(alice)

    async def exchange(client):
        steps = {}
        steps["tools"] = {tool.name for tool in (await client.list_tools()).tools}
        steps["latest"] = await client.call_tool("read_brief", {})
        steps["search"] = await client.call_tool("search_inbox", {"q": "vacuum"})
        item_id = steps["search"].structured_content["items"][0]["id"]
        steps["save"] = await client.call_tool(
            "mark_items", {"item_ids": [item_id], "action": "save"}
        )
        topic = {"topic": "heat pumps", "schedule": "weekdays at 7:30", "timezone": "Europe/Oslo"}
        steps["ask"] = await client.call_tool("create_subscription", topic)
        token_ = steps["ask"].structured_content["confirmation"]
        steps["created"] = await client.call_tool(
            "create_subscription", {**topic, "confirmation": token_}
        )
        subscription_id = steps["created"].structured_content["subscription"]["id"]
        steps["preview"] = await client.call_tool(
            "preview_subscription", {"subscription_id": subscription_id}
        )
        steps["ask_run"] = await client.call_tool("run_now", {"subscription_id": subscription_id})
        steps["ran"] = await client.call_tool(
            "run_now",
            {
                "subscription_id": subscription_id,
                "confirmation": steps["ask_run"].structured_content["confirmation"],
            },
        )
        steps["brief"] = await client.call_tool("read_brief", {"subscription_id": subscription_id})
        return steps

    steps = run_client(mcp_url, token, exchange)

    assert {"read_brief", "search_inbox", "mark_items", "create_subscription", "run_now"} <= steps[
        "tools"
    ]
    latest = steps["latest"].structured_content["brief"]
    assert latest["subscription_name"] == "Rust"
    assert latest["items"][0]["untrusted"]["title"] == "Rust 2.0 plans"
    assert "Rust 2.0 plans" in steps["latest"].content[0].text

    found = steps["search"].structured_content["items"]
    assert [i["untrusted"]["title"] for i in found] == ["PostgreSQL vacuum tuning"]
    assert UserContentState.objects.get(user=alice, saved_at__isnull=False)

    ask = steps["ask"].structured_content
    assert ask["status"] == "confirmation_required"
    assert ask["cron"] == "30 7 * * 1-5"
    assert "credits" in ask["consequence"]
    created = steps["created"].structured_content["subscription"]
    subscription = Subscription.objects.get(pk=created["id"], owner=alice)
    assert (subscription.cron, subscription.timezone) == ("30 7 * * 1-5", "Europe/Oslo")
    assert any("heat pump" in interest.lower() for interest in subscription.interests)

    picked = [i["untrusted"]["title"] for i in steps["preview"].structured_content["selected"]]
    assert set(picked) == {"Heat pumps: a field test in Norway", "Heat pump prices fall in 2026"}

    assert steps["ask_run"].structured_content["status"] == "confirmation_required"
    assert Run.objects.filter(subscription=subscription).count() == 1  # the confirmed one only
    brief = steps["brief"].structured_content["brief"]
    assert brief["status"] == "succeeded"
    assert {i["untrusted"]["title"] for i in brief["items"]} == set(picked)


def test_resources_are_the_latest_brief_of_each_subscription_and_prompts_are_listed(
    mcp_url, briefs, alice
):
    async def read(client):
        resources = (await client.list_resources()).resources
        pg = next(r for r in resources if r.title.endswith("Databases"))
        content = await client.read_resource(pg.uri)
        prompts = (await client.list_prompts()).prompts
        tune = await client.get_prompt(
            "tune_this_subscription", {"subscription_id": str(briefs["pg"].subscription_id)}
        )
        return resources, content, prompts, tune

    resources, content, prompts, tune = run_client(mcp_url, token_of(alice), read)
    assert len(resources) == 2  # Alice's two subscriptions, not Bob's
    text = content.contents[0].text
    assert text.startswith("# Databases")
    assert "PostgreSQL 18 released" in text and "Birdwatching" not in text
    assert {p.name for p in prompts} == {"my_morning_briefing", "tune_this_subscription"}
    assert f"subscription {briefs['pg'].subscription_id}" in tune.messages[0].content.text


def test_pause_update_and_delete_change_the_subscription(mcp_url, briefs, alice):
    subscription_id = briefs["pg"].subscription_id

    async def tune(client):
        paused = await client.call_tool("pause_subscription", {"subscription_id": subscription_id})
        changed = await client.call_tool(
            "update_subscription",
            {"subscription_id": subscription_id, "exclusions": ["MySQL"], "length": "standard"},
        )
        ask = await client.call_tool("delete_subscription", {"subscription_id": subscription_id})
        gone = await client.call_tool(
            "delete_subscription",
            {
                "subscription_id": subscription_id,
                "confirmation": ask.structured_content["confirmation"],
            },
        )
        return paused, changed, gone

    paused, changed, gone = run_client(mcp_url, token_of(alice), tune)
    assert paused.structured_content["subscription"]["status"] == "paused"
    assert changed.structured_content["subscription"]["exclusions"] == ["MySQL"]
    assert changed.structured_content["subscription"]["max_items"] == 20
    assert gone.structured_content == {"deleted": subscription_id}
    assert Subscription.objects.get(pk=subscription_id).deleted_at is not None


def test_schedule_changes_are_confirmed_with_their_new_cost(mcp_url, briefs, alice):
    subscription_id = briefs["pg"].subscription_id

    async def change(client):
        ask = await client.call_tool(
            "update_subscription", {"subscription_id": subscription_id, "schedule": "every 6 hours"}
        )
        done = await client.call_tool(
            "update_subscription",
            {
                "subscription_id": subscription_id,
                "schedule": "every 6 hours",
                "confirmation": ask.structured_content["confirmation"],
            },
        )
        return ask, done

    ask, done = run_client(mcp_url, token_of(alice), change)
    assert ask.structured_content["estimate"]["runs_per_month"] >= 119
    assert Subscription.objects.get(pk=subscription_id).cron == "0 */6 * * *"
    assert done.structured_content["subscription"]["cron"] == "0 */6 * * *"


def test_credits_and_sources_and_topics_answer(mcp_url, briefs, alice):
    async def look(client):
        return (
            await client.call_tool("credits_balance", {}),
            await client.call_tool("estimate_cost", {"cron": "0 8 * * *"}),
            await client.call_tool("list_sources", {}),
            await client.call_tool("list_public_topics", {}),
            await client.call_tool("search_pool_items", {"terms": ["PostgreSQL"]}),
        )

    balance, estimate, sources, topics, pool = run_client(mcp_url, token_of(alice), look)
    assert balance.structured_content["tier"] == "pro"
    assert estimate.structured_content["runs_per_month"] in (30, 31)
    assert sources.structured_content == {"sources": []}
    assert topics.structured_content == {"topics": []}
    titles = {i["untrusted"]["title"] for i in pool.structured_content["items"]}
    assert titles == {"PostgreSQL 18 released", "PostgreSQL vacuum tuning", "PostgreSQL on ARM"}


def test_an_assistant_adds_a_feed_and_saves_a_page_from_loopback_servers(
    mcp_url, briefs, alice, fixture_server
):
    feed = fixture_server.add(
        "/rss",
        (TESTDATA / "ingest" / "testdata" / "rss2.xml").read_bytes(),
        Content_Type="application/rss+xml",
    )
    page = fixture_server.add("/posts/autovacuum", ARTICLE, Content_Type="text/html")

    async def add(client):
        added = await client.call_tool("add_source", {"url": feed})
        listed = await client.call_tool("list_sources", {})
        ask = await client.call_tool("save_page_for_later", {"url": page, "when": "in 3 hours"})
        saved = await client.call_tool(
            "save_page_for_later",
            {
                "url": page,
                "when": "in 3 hours",
                "confirmation": ask.structured_content["confirmation"],
            },
        )
        return added, listed, ask, saved

    added, listed, ask, saved = run_client(mcp_url, token_of(alice), add)
    assert added.structured_content["created"] is True
    assert [s["url"] for s in listed.structured_content["sources"]][-1] == feed
    assert ask.structured_content["status"] == "confirmation_required"
    assert saved.structured_content["untrusted"]["title"]
    subscription = Subscription.objects.get(pk=saved.structured_content["subscription_id"])
    assert subscription.owner == alice and subscription.run_at is not None
