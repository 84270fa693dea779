import sys
import xml.etree.ElementTree as ET
fail = total = 0
for f in sys.argv[1:]:
    r = ET.parse(f).getroot()
    total += int(r.get("tests", 0)); fail += int(r.get("failures", 0))
print(f"{total - fail}/{total} passed")
