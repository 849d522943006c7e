"""Exact analysis that prints and writes results: Parket positions and endgame studies
(`parket`)."""
