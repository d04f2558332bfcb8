def test_fixture_server_is_reachable_through_the_fetcher(fixture_server):
    from ingest.fetching.fetch import fetch

    url = fixture_server.add("/hello", "hi", Content_Type="text/plain")
    assert fetch(url).content == b"hi"
