#!/bin/bash
n=${1:-10}
for i in $(seq "$n"); do
  pytest -q -p no:randomly --lf || echo "run $i failed"
done | sort | uniq -c
