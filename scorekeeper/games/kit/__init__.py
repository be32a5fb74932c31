"""What a game's web side builds on: the `WebGame` interface and the JSON Schema parts of deals."""
