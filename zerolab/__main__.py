"""Entry point for `python -m zerolab`."""
import sys

from zerolab.cli import main

sys.exit(main())
