"""The `koloda` command line: it parses arguments, checks them and hands them to the room
that does the work (`koloda.cli.main.main` is the console script)."""

from koloda.cli.main import main

__all__ = ["main"]
