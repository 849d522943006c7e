"""The conformance suite: the contract every koloda game keeps, tested once for all of them.

The games and parameter sets under test are listed in `games_under_test.py`; a new game
joins every test here by adding one line there.
"""
