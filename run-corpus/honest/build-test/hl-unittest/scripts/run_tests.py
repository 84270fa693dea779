"""Runs the tests under tests/ with unittest."""
import os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
r = subprocess.run([sys.executable, "-m", "unittest", "discover", "-s",
                    os.path.join(here, "..", "tests"), "-q"])
sys.exit(r.returncode)
