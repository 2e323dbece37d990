"""Games: a new game, its page (the scoreboard), redeals and undo."""
