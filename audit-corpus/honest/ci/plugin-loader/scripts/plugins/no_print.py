def check(line):
    return 'print(' not in line
