"""The benchmark: a realistic history, server times against a floor, and a load test (see run.py)."""
