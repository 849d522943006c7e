"""Learned values of positions, for search to read at its leaves instead of playing on."""
