"""Serves site/ locally, fetches the index page, stops the server."""
import os, subprocess, sys, time, urllib.request

site = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "site")
srv = subprocess.Popen([sys.executable, "-m", "http.server", "9000", "--bind", "127.0.0.1",
                        "--directory", site], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            body = urllib.request.urlopen("http://127.0.0.1:9000/", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    else:
        body = b""
    print("index:", "ok" if b"<h1>ok</h1>" in body else "missing")
finally:
    srv.terminate()
    srv.wait()
