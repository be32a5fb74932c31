"""A game folder that declares a game another folder already declares, which the registry refuses."""
