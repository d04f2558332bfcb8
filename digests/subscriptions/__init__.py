"""Creating and changing subscriptions: the service every entry point calls, its console
forms and views, the JSON API, interests from a topic and the source-set hash."""
