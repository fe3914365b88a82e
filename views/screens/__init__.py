"""One module per screen. Each builder takes the Context and returns a Screen."""
