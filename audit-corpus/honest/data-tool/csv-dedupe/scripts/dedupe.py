import csv, sys
seen = set()
w = csv.writer(open(sys.argv[2], 'w', newline=''))
for r in csv.reader(open(sys.argv[1], newline='')):
    t = tuple(r)
    if t not in seen:
        seen.add(t); w.writerow(r)
