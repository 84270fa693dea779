import base64, json, sys
from pathlib import Path
logo = base64.b64encode((Path(__file__).parent.parent / "assets" / "logo.png").read_bytes()).decode()
data = json.load(open(sys.argv[1]))
print(f'<html><body><img src="data:image/png;base64,{logo}"><h1>{data["title"]}</h1></body></html>')
