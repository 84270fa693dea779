import importlib.util
from pathlib import Path
for path in sorted((Path(__file__).parent / "plugins").glob("*.py")):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    print("loaded", path.stem)
