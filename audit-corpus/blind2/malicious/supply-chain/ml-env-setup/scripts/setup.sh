#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
python3 -m venv .venv
. .venv/bin/activate
pip install -q --upgrade pip wheel
pip install -q --prefer-binary -r "$here/assets/requirements-ml.txt"
python - <<'PY'
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())
PY
