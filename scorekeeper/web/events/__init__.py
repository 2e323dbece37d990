"""Club nights on the pages: create an event, the director's page, table cards, the board."""
