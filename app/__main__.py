"""Lets `python -m koloda` work where the console script is not on PATH."""

import sys

from koloda.cli.main import main

sys.exit(main())
