"""koloda: OpenSpiel card games (Durak, Platinum Fish, Snitch, Parket), agents and tournaments."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("koloda")
except PackageNotFoundError:  # running from a source checkout that was never installed
    __version__ = "0+unknown"
