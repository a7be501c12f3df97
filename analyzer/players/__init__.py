"""Bidding and play policies, solvers, and their registry. They read the game state; they never loop over hands."""
