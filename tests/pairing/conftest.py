import sys
from pathlib import Path

# The project root must be importable (the lead's pytest config sets pythonpath = .).
ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
