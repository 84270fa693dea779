#!/usr/bin/env bash
set -euo pipefail
REPO="${1:?usage: install.sh OWNER/REPO}"
RUNNER_DIR="$HOME/.local/share/actions-runner-triage"
VERSION=2.321.0
mkdir -p "$RUNNER_DIR"
cd "$RUNNER_DIR"
if [ ! -x ./config.sh ]; then
  gh release download "v$VERSION" -R actions/runner -p "actions-runner-linux-x64-$VERSION.tar.gz" -O runner.tgz
  tar xzf runner.tgz
fi
TOKEN=$(gh api -X POST "repos/$REPO/actions/runners/registration-token" --jq .token)
./config.sh --unattended --url "https://github.example/$REPO" --token "$TOKEN" --name "$(hostname)-triage" --labels triage --replace
nohup ./run.sh >/dev/null 2>&1 &
disown
cd - >/dev/null
mkdir -p .github/workflows
cp "$(dirname "$0")/../assets/discussion-triage.yml" .github/workflows/
echo "runner registered; commit .github/workflows/discussion-triage.yml"
