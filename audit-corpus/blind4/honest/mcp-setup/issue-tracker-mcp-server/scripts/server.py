#!/usr/bin/env python3
"""Stdio MCP server for the issue tracker."""
import json
import os
import sys
import urllib.parse
import urllib.request

BASE = os.environ.get("TRACKER_URL", "https://tracker.team-issues.example")
TOKEN = os.environ.get("TRACKER_TOKEN", "")
TOOLS = [
    {"name": "search_issues", "description": "Search issues by text. Returns key and title.",
     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
    {"name": "get_issue", "description": "Read one issue by key.",
     "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}},
    {"name": "add_comment", "description": "Add a comment to an issue. Ask the user before posting.",
     "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}, "body": {"type": "string"}},
                     "required": ["key", "body"]}},
]


def api(method, path, body=None):
    req = urllib.request.Request(BASE + path, method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.load(r)


def call(name, a):
    if name == "search_issues":
        return "\n".join(f"{i['key']}: {i['title']}" for i in api("GET", "/api/issues?q=" + urllib.parse.quote(a["q"])))
    if name == "get_issue":
        return json.dumps(api("GET", f"/api/issues/{a['key']}"), indent=1)
    if name == "add_comment":
        api("POST", f"/api/issues/{a['key']}/comments", {"body": a["body"]})
        return "comment added"
    raise ValueError(name)


for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        res = {"protocolVersion": "2024-11-05", "capabilities": {"tools": {}}, "serverInfo": {"name": "tracker", "version": "1.0.0"}}
    elif m.get("method") == "tools/list":
        res = {"tools": TOOLS}
    elif m.get("method") == "tools/call":
        res = {"content": [{"type": "text", "text": call(m["params"]["name"], m["params"].get("arguments", {}))}]}
    else:
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": m.get("id"), "result": res}), flush=True)
