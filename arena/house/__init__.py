"""What the house bots (bots/greedy_bot.py, bots/search_bot.py) share: the
per-game evaluations and the protocol loop."""
