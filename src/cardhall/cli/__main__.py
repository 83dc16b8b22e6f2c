"""``python -m cardhall.cli`` = the ``cardhall`` command."""

import sys

from . import main

sys.exit(main())
