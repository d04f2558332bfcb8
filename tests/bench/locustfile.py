"""Locust users for the `load` benchmark (tests/bench/load.py starts locust headless with one
of these classes). Credentials come from the JSON file named by TIDINGS_LOAD_CREDENTIALS:
session cookies for signed-in readers, API tokens, and the public paths to visit."""

from __future__ import annotations

import itertools
import json
import os
import random

from locust import FastHttpUser, constant, task

with open(os.environ["TIDINGS_LOAD_CREDENTIALS"]) as file:
    CREDENTIALS = json.load(file)
_sessions = itertools.cycle(CREDENTIALS["sessions"])
_tokens = itertools.cycle(CREDENTIALS["tokens"])


class PublicVisitor(FastHttpUser):
    """An anonymous visitor (or a search engine) on the public pages."""

    wait_time = constant(0)

    @task
    def page(self):
        path = random.choice(CREDENTIALS["public_paths"])
        self.client.get(path, name="public page")


class InboxReader(FastHttpUser):
    """A signed-in reader paging through their Inbox, each with their own account."""

    wait_time = constant(0)

    def on_start(self):
        self.cookie = f"sessionid={next(_sessions)}"

    @task(4)
    def inbox(self):
        self.client.get("/inbox/", headers={"Cookie": self.cookie}, name="/inbox/")

    @task(1)
    def unread(self):
        self.client.get("/inbox/?show=unread", headers={"Cookie": self.cookie}, name="/inbox/")


class ApiClient(FastHttpUser):
    """A script with a personal API token."""

    wait_time = constant(0)

    def on_start(self):
        self.auth = {"Authorization": f"Bearer {next(_tokens)}"}

    @task(3)
    def items(self):
        self.client.get("/api/v1/inbox/items", headers=self.auth, name="/api/v1/inbox/items")

    @task(1)
    def subscriptions(self):
        self.client.get("/api/v1/subscriptions", headers=self.auth, name="/api/v1/subscriptions")
