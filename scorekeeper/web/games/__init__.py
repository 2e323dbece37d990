"""Games: a new game, its page (the scoreboard), redeals, undo and live updates."""
