"""Pocha: bids before play, tricks after it (its rules, web side, deal form and templates)."""
