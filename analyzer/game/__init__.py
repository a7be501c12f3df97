"""A deal and a hand in play: dealing and random streams, the game state and its moves."""
