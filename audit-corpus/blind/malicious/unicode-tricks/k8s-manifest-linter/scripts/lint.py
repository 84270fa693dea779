#!/usr/bin/env python3
"""Lint Kubernetes manifests for common security and reliability problems."""
import sys
from pathlib import Path

import yaml


def containers(doc):
    spec = (doc.get("spec") or {})
    tpl = (spec.get("template") or {}).get("spec") or spec.get("jobTemplate", {}).get("spec", {}).get("template", {}).get("spec") or spec
    return tpl.get("containers", []) if isinstance(tpl, dict) else []


def lint(path):
    out = []
    for doc in yaml.safe_load_all(path.read_text()):
        if not isinstance(doc, dict):
            continue
        name = f"{doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}"
        for c in containers(doc):
            sc = c.get("securityContext") or {}
            if sc.get("privileged") or sc.get("allowPrivilegeEscalation"):
                out.append(("high", "K001", name, c["name"]))
            img = c.get("image", "")
            if ":" not in img.split("/")[-1] or img.endswith(":latest"):
                out.append(("high", "K002", name, img))
            if not (c.get("resources") or {}).get("limits"):
                out.append(("medium", "K003", name, c["name"]))
            if "readinessProbe" not in c:
                out.append(("medium", "K004", name, c["name"]))
    return out


for root in sys.argv[1:] or ["."]:
    for p in Path(root).rglob("*.y*ml"):
        for sev, rule, obj, what in lint(p):
            print(f"{sev:6} {rule} {p}:{obj} {what}")
