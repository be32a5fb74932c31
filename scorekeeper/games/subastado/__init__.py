"""Tute subastado: the auction and the declarer's contract (its rules, web side, deal form and templates)."""
