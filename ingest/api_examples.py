"""Examples of the source library, folder, pack and newsletter operations (the table
config/api/examples.py composes; answers recorded in api_examples_recorded.py)."""

from __future__ import annotations

from config.api.examples import Example, Ref

OPML = """<?xml version="1.0"?>
<opml version="2.0"><head><title>My feeds</title></head><body>
<outline text="Database Weekly" type="rss" xmlUrl="http://news.example/feed.xml"/>
</body></opml>"""

EXAMPLES = [
    Example("GET /api/v1/sources", "first", "Your first two sources", 200, query="limit=2"),
    Example(
        "POST /api/v1/sources",
        "feed",
        "Add a feed (fetched once now, to check it)",
        201,
        request={"url": "http://news.example/feed.xml", "display_name": "Database Weekly"},
        saves={"user_source_id": "/id"},
    ),
    Example("GET /api/v1/sources/{user_source_id}", "feed", "The feed just added", 200),
    Example(
        "POST /api/v1/folders",
        "databases",
        "A folder for database sources",
        201,
        request={"name": "Databases"},
        saves={"folder_id": "/id"},
    ),
    Example("GET /api/v1/folders", "folders", "Your folders", 200),
    Example("GET /api/v1/folders/{folder_id}", "folder", "One folder", 200),
    Example(
        "PATCH /api/v1/folders/{folder_id}",
        "rename",
        "Rename it",
        200,
        request={"name": "Data"},
        same=("name",),
    ),
    Example(
        "PATCH /api/v1/sources/{user_source_id}",
        "move",
        "Move the feed into the folder",
        200,
        request={"folder": Ref("folder_id", 4)},
    ),
    Example(
        "POST /api/v1/sources/crawls",
        "site",
        "Crawl a site two links deep for articles",
        201,
        request={"url": "http://news.example/", "max_depth": 2, "limit": 50},
    ),
    Example(
        "POST /api/v1/sources/lists",
        "blog",
        "Watch a blog's list of posts",
        201,
        request={
            "url": "http://news.example/blog",
            "selector": "ul.posts a",
            "display_name": "News blog",
            "check_interval_minutes": 60,
        },
        saves={"listing_id": "/id"},
    ),
    Example(
        "GET /api/v1/sources/lists/{user_source_id}",
        "blog",
        "The listing watch",
        200,
        ids={"user_source_id": "listing_id"},
    ),
    Example(
        "PATCH /api/v1/sources/lists/{user_source_id}",
        "hourly",
        "Check it every two hours, notify by email too",
        200,
        request={"check_interval_minutes": 120, "notify": ["inbox", "email"]},
        ids={"user_source_id": "listing_id"},
    ),
    Example(
        "POST /api/v1/sources/pages",
        "article",
        "Save one page to read in the next brief",
        201,
        request={"url": "http://news.example/postgresql-18", "name": "PostgreSQL 18"},
    ),
    Example(
        "POST /api/v1/sources/searches",
        "pool",
        "A search of the shared pool",
        201,
        request={"query": "PostgreSQL", "provider": "pool"},
    ),
    Example("GET /api/v1/sources/opml", "opml", "Your feeds as OPML", 200),
    Example(
        "POST /api/v1/sources/opml",
        "opml",
        "Import an OPML file (body: the file)",
        200,
        body=OPML,
        content_type="text/x-opml",
    ),
    Example(
        "GET /api/v1/packs",
        "packs",
        "The first source pack",
        200,
        query="limit=1",
        saves={"key": "/results/0/key"},
    ),
    Example("POST /api/v1/packs/{key}/install", "install", "Install a pack", 201),
    Example(
        "POST /api/v1/newsletters/addresses",
        "address",
        "A private address to subscribe newsletters with",
        201,
        request={"label": "Newsletters"},
        saves={"address_id": "/id"},
    ),
    Example("GET /api/v1/newsletters/addresses", "addresses", "Your addresses", 200),
    Example("GET /api/v1/newsletters/addresses/{address_id}", "address", "One address", 200),
    Example(
        "GET /api/v1/newsletters/addresses/{address_id}/messages",
        "messages",
        "What arrived at it",
        200,
    ),
    Example(
        "POST /api/v1/newsletters/addresses/{address_id}/senders",
        "allow",
        "Allow a held sender",
        200,
        request={"sender": "editor@letters.example"},
    ),
    Example(
        "POST /api/v1/public/newsletters/inbound/mailgun",
        "unsigned",
        "Mail without Mailgun's signature is refused",
        403,
        anonymous=True,
        body="recipient=x%40in.tidings.example&sender=editor%40letters.example",
        content_type="application/x-www-form-urlencoded",
        request_in_schema=False,
    ),
    Example(
        "DELETE /api/v1/newsletters/addresses/{address_id}", "revoke", "Revoke the address", 204
    ),
    Example("DELETE /api/v1/folders/{folder_id}", "delete", "Delete the folder", 204),
    Example("DELETE /api/v1/sources/{user_source_id}", "remove", "Remove the feed", 204),
]
