"""Tute: for two, for three, and for four in pairs (its rules, web side, deal form and templates)."""
