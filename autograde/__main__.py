"""Entry point for `python -m autograde`."""
import sys

from autograde.cli import main

sys.exit(main())
