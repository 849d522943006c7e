"""Seeds derived from a tournament seed and names, stable across runs and machines."""

import hashlib


def derive_seed(*parts) -> int:
    """A 31-bit seed from any parts (ints, strings), the same on every machine."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big") & 0x7FFFFFFF
