"""``python -m cardhall`` = the ``cardhall`` command."""

import sys

from .cli import main

sys.exit(main())
