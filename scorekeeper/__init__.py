"""Scorekeeper: keeps score at a real table for the Spanish card games Tute and Pocha."""
