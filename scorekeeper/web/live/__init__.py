"""Live updates, in one place: a page follows its game or club night by the event
stream (:mod:`.streams`, server-sent events woken by ``store.version_watch``) or
by polling its version (:mod:`.routes`), and an unchanged version is answered 304
before the app runs (:mod:`.unchanged`)."""
