"""The questions the analyser answers: take, bidding tables, balance, what rule options change."""
