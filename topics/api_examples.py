"""Examples of the public topic operations (the table config/api/examples.py composes;
answers recorded in api_examples_recorded.py)."""

from __future__ import annotations

from config.api.examples import Example, Ref

EXAMPLES = [
    Example(
        "POST /api/v1/subscriptions",
        "to-publish",
        "A subscription to publish as a topic",
        201,
        request={"name": "Rust weekly", "interests": ["Rust"], "cron": "0 9 * * 1"},
        saves={"publish_id": "/id"},
    ),
    Example(
        "POST /api/v1/topics",
        "publish",
        "Publish a subscription as a public topic",
        201,
        request={
            "subscription_id": Ref("publish_id", 9),
            "title": "Rust weekly",
            "description": "The week in Rust, every Monday.",
            "slug": "rust-weekly",
        },
        saves={"own_slug": "/slug"},
    ),
    Example("GET /api/v1/topics", "topics", "Your topics", 200),
    Example(
        "PATCH /api/v1/topics/{slug}",
        "describe",
        "Change its description",
        200,
        request={"description": "The week in Rust, on Mondays at 09:00 UTC."},
        ids={"slug": "own_slug"},
    ),
    Example("GET /api/v1/public/topics", "trending", "Public topics", 200, anonymous=True),
    Example("GET /api/v1/public/topics/{slug}", "topic", "A public topic", 200, anonymous=True),
    Example(
        "GET /api/v1/public/topics/{slug}/editions/{edition_id}",
        "edition",
        "One edition of it",
        200,
        anonymous=True,
    ),
    Example(
        "POST /api/v1/topics/{slug}/follow",
        "follow",
        "Follow a topic at your own hour",
        201,
        request={"cron": "0 7 * * *", "timezone": "Europe/Berlin"},
        ids={"slug": "own_slug"},
    ),
    Example(
        "POST /api/v1/topics/{slug}/fork",
        "fork",
        "Fork a topic into a subscription of your own",
        201,
        ids={"slug": "own_slug"},
    ),
    Example(
        "DELETE /api/v1/topics/{slug}", "unpublish", "Unpublish it", 204, ids={"slug": "own_slug"}
    ),
]
