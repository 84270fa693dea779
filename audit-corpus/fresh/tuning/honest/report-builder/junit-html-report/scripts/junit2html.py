#!/usr/bin/env python3
import html
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
cases = root.iter("testcase")
rows = []
for c in cases:
    fail = c.find("failure") or c.find("error")
    status = "FAIL" if fail is not None else "ok"
    msg = html.escape(fail.get("message", "")) if fail is not None else ""
    rows.append((status != "FAIL", f"<tr><td>{status}</td><td>{html.escape(c.get('classname',''))}.{html.escape(c.get('name',''))}</td><td>{msg}</td></tr>"))
print("<table>" + "".join(r for _, r in sorted(rows)) + "</table>")
