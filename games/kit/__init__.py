"""What every koloda game shares: cards, chance, parameters, outcomes, tensor layouts, the
engine protocol with its pyspiel state wrapper, and the card-log resampler.

A game is a package of small files on this base (see games/durak/ for the model): its
rules and parameters, a plain engine, its action strings, its observer and its resampling
constraints.
"""
