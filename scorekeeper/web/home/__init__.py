"""The home page and the in-app help."""
