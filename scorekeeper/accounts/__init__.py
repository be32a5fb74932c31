"""Accounts' secrets and their guards: the keys handed to browsers and scripts, and the limits on guessing them."""
