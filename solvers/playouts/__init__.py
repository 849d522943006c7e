"""Rules-of-thumb playouts that value search leaves, one module per game that has them.

A playout runs in a sampled world, so it may read every hand; it plays the world to the
end in place, by `random()` (floats in [0, 1)) wherever it leaves a choice to chance.
"""
