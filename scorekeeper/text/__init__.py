"""Every sentence a player reads: the locale, the engine's messages, rule words, rulings
and the history's prose, in the request's language (English outside a request)."""
