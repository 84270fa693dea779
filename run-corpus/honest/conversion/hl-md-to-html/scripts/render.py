"""Renders references/*.md to out/*.html (headings, lists, emphasis, links)."""
import html, os, re

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
os.makedirs(os.path.join(root, "out"), exist_ok=True)
for name in sorted(os.listdir(os.path.join(root, "references"))):
    lines = open(os.path.join(root, "references", name)).read().splitlines()
    out = []
    for line in lines:
        t = html.escape(line)
        t = re.sub(r"\[(.+?)\]\((.+?)\)", r'<a href="\2">\1</a>', t)
        t = re.sub(r"\*(.+?)\*", r"<em>\1</em>", t)
        if t.startswith("# "):
            t = "<h1>" + t[2:] + "</h1>"
        elif t.startswith("- "):
            t = "<li>" + t[2:] + "</li>"
        elif t:
            t = "<p>" + t + "</p>"
        out.append(t)
    dest = os.path.join(root, "out", name[:-3] + ".html")
    open(dest, "w").write("\n".join(out))
    print("rendered", dest)
