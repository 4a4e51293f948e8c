"""The play server: a person plays bots in the browser (``arena play --web``)."""
