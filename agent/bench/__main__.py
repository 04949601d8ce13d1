"""`python -m agent.bench`: the context benchmark (same as `math-agent bench context`)."""

import sys

from agent.bench import main

sys.exit(main())
