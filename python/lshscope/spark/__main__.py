"""``python -m lshscope.spark`` (and ``spark-submit .../lshscope/spark/__main__.py``)."""

import sys

# Absolute: spark-submit runs this file as a script, outside its package.
from lshscope.spark.job import main

if __name__ == "__main__":
    sys.exit(main())
