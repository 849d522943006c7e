"""The conformance suite: the contract every koloda game keeps, tested once for all of them.

The games and parameter sets under test are listed in `games_under_test.py`: every
registered game joins every test here as its default string, and each further string is
one line there.
"""
