#!/usr/bin/env python3
"""Writes the hostile-archive corpus skillpm's unpacker must refuse, plus a few
good archives it must accept, and a manifest describing every case.

    python3 scripts/hostile-corpus.py OUT_DIR MARKER

Python's zipfile and tarfile write entry names exactly as given (no
sanitising), which is what a hostile archive needs; the few things they cannot
express (header disagreement, raw non-UTF-8 names, encryption flags) are made
by patching the bytes they wrote. MARKER is a unique word put in every name
that tries to escape, so the test can search the disk for anything that got
out. Every refused case still carries a valid SKILL.md, so it is refused for
its hostile entry, not for a missing skill.

The manifest (OUT_DIR/manifest.json) lists, per case: id, file, the skill
name to expect, "refuse" or "accept", the text the error must contain, and
for accepted cases the folder whose tree digest the result must equal.
"""

import io
import json
import os
import random
import stat
import struct
import sys
import tarfile
import zipfile

NAME = "hostile"
SKILL_MD = b"---\nname: hostile\ndescription: A skill used to test strict unpacking.\n---\n# Hostile\n"
MIB = 1024 * 1024

cases = []


def case(cid, file, expect, stderr, tree_of=None):
    cases.append(
        {"id": cid, "file": file, "name": NAME, "expect": expect, "stderr": stderr, "tree_of": tree_of}
    )


# ---------------------------------------------------------------- zip helpers


def zinfo(name, mode=0o644, kind=stat.S_IFREG, compress=zipfile.ZIP_DEFLATED):
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.create_system = 3  # Unix, so the mode bits below are read
    info.external_attr = (kind | mode) << 16
    info.compress_type = compress
    return info


def write_zip(path, entries, skill_md=True):
    """entries: (name, bytes) or (ZipInfo, bytes)."""
    with zipfile.ZipFile(path, "w") as z:
        if skill_md:
            z.writestr(zinfo("SKILL.md"), SKILL_MD)
        for name, data in entries:
            info = name if isinstance(name, zipfile.ZipInfo) else zinfo(name)
            z.writestr(info, data)


def patch_all(path, old, new, count=None):
    data = open(path, "rb").read()
    found = data.count(old)
    assert found >= 1, (path, old)
    if count is not None:
        assert found == count, (path, old, found)
    open(path, "wb").write(data.replace(old, new))


def patch_local_header(path, name, fn):
    """Calls fn(bytearray, offset_of_local_header) for the entry `name`."""
    data = bytearray(open(path, "rb").read())
    with zipfile.ZipFile(path) as z:
        offset = z.getinfo(name).header_offset
    fn(data, offset)
    open(path, "wb").write(bytes(data))


# ---------------------------------------------------------------- tar helpers


def tinfo(name, size=0, kind=tarfile.REGTYPE, mode=0o644, link=""):
    info = tarfile.TarInfo(name)
    info.size = size
    info.type = kind
    info.mode = mode
    info.linkname = link
    info.mtime = 1704067200
    return info


def write_targz(path, entries, skill_md=True, fmt=tarfile.PAX_FORMAT, encoding="utf-8", pax_global=None):
    """entries: (TarInfo, bytes or None)."""
    with tarfile.open(path, "w:gz", format=fmt, encoding=encoding, errors="surrogateescape",
                      pax_headers=pax_global) as t:
        if skill_md:
            t.addfile(tinfo("SKILL.md", len(SKILL_MD)), io.BytesIO(SKILL_MD))
        for info, data in entries:
            if data is not None:
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            else:
                t.addfile(info)


def main():
    out, marker = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    evil = f"evil-{marker}"
    payload = b"pwned\n"
    p = lambda f: os.path.join(out, f)  # noqa: E731

    # --- names refused in both formats -------------------------------------
    named = [
        ("parent-1", f"../{evil}", "`..` path segment"),
        ("parent-2", f"a/../../{evil}", "`..` path segment"),
        ("parent-3", f"a/b/../../../{evil}", "`..` path segment"),
        ("parent-deep", f"../../../../../../../../../../tmp/{evil}", "`..` path segment"),
        ("backslash-parent", f"..\\{evil}", "contains `\\`"),
        ("backslash-deep", f"a\\..\\..\\{evil}", "contains `\\`"),
        ("absolute", f"/tmp/{evil}", "absolute path"),
        ("drive", f"C:/{evil}", "drive prefix"),
        ("drive-relative", f"C:{evil}", "drive prefix"),
        ("dot-segment", f"a/./{evil}", "`.` path segment"),
        ("empty-segment", f"a//{evil}", "empty path segment"),
        ("reserved-con", "CON.txt", "reserved device name"),
        ("reserved-aux-nested", "docs/aux.md", "reserved device name"),
        ("reserved-lpt", "lpt1", "reserved device name"),
        ("control-newline", f"bad\nname-{marker}.md", "control character"),
        ("control-escape", f"esc\x1b[31m-{marker}.md", "control character"),
        ("trailing-dot", "notes.", "ends with a dot or a space"),
        ("trailing-space", "notes ", "ends with a dot or a space"),
        ("colon-stream", "file.txt:stream", "`:` in the name"),
    ]
    for cid, name, why in named:
        write_zip(p(f"z-{cid}.zip"), [(name, payload)])
        case(f"z-{cid}", f"z-{cid}.zip", "refuse", why)
        write_targz(p(f"t-{cid}.tar.gz"), [(tinfo(name), payload)])
        case(f"t-{cid}", f"t-{cid}.tar.gz", "refuse", why)

    # A `..` name long enough to travel in a PAX record, and in a GNU long name.
    long_escape = "d" * 120 + f"/../../{evil}"
    write_targz(p("t-pax-parent.tar.gz"), [(tinfo(long_escape), payload)])
    case("t-pax-parent", "t-pax-parent.tar.gz", "refuse", "`..` path segment")
    write_targz(p("t-gnu-longname-parent.tar.gz"), [(tinfo(long_escape), payload)], fmt=tarfile.GNU_FORMAT)
    case("t-gnu-longname-parent", "t-gnu-longname-parent.tar.gz", "refuse", "`..` path segment")

    # Case collision (README.md + readme.md): the same file on macOS and Windows.
    write_zip(p("z-case-collision.zip"), [("README.md", b"a"), ("readme.md", b"b")])
    case("z-case-collision", "z-case-collision.zip", "refuse", "case-insensitive")
    write_targz(p("t-case-collision.tar.gz"), [(tinfo("README.md"), b"a"), (tinfo("readme.md"), b"b")])
    case("t-case-collision", "t-case-collision.tar.gz", "refuse", "case-insensitive")

    # Raw non-UTF-8 name.
    write_zip(p("z-not-utf8.zip"), [("bad-Q.md", payload)])
    patch_all(p("z-not-utf8.zip"), b"bad-Q.md", b"bad-\xff.md", count=2)
    case("z-not-utf8", "z-not-utf8.zip", "refuse", "not valid UTF-8")
    write_targz(p("t-not-utf8.tar.gz"), [(tinfo("bad-\udcff.md"), payload)], fmt=tarfile.GNU_FORMAT)
    case("t-not-utf8", "t-not-utf8.tar.gz", "refuse", "not valid UTF-8")

    # --- duplicates ----------------------------------------------------------
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        write_zip(p("z-duplicate.zip"), [("dup.md", b"first"), ("dup.md", b"second")])
    case("z-duplicate", "z-duplicate.zip", "refuse", "same name")
    write_targz(p("t-duplicate.tar.gz"), [(tinfo("dup.md"), b"first"), (tinfo("dup.md"), b"second")])
    case("t-duplicate", "t-duplicate.tar.gz", "refuse", "appears twice")
    write_targz(p("t-file-and-folder.tar.gz"), [(tinfo("x"), b"file"), (tinfo("x/y"), b"inside")])
    case("t-file-and-folder", "t-file-and-folder.tar.gz", "refuse", "both a file and a folder")

    # --- zip local/central header disagreement ------------------------------
    write_zip(p("z-header-name.zip"), [("notes.md", payload)])

    def rename_local(data, off):
        name_len = struct.unpack_from("<H", data, off + 26)[0]
        start = off + 30
        assert bytes(data[start:start + name_len]) == b"notes.md"
        data[start:start + name_len] = b"../x.mdx"  # same length, escaping

    patch_local_header(p("z-header-name.zip"), "notes.md", rename_local)
    case("z-header-name", "z-header-name.zip", "refuse", "inconsistent")

    write_zip(p("z-header-size.zip"), [("notes.md", b"x" * 4096)])

    def resize_local(data, off):
        struct.pack_into("<I", data, off + 22, 999_999)  # uncompressed size

    patch_local_header(p("z-header-size.zip"), "notes.md", resize_local)
    case("z-header-size", "z-header-size.zip", "refuse", "inconsistent")

    # Encrypted flag set in both headers; a method only deflate builds lack.
    write_zip(p("z-encrypted.zip"), [("secret.md", payload)])

    def set_encrypted(path, name):
        data = bytearray(open(path, "rb").read())
        with zipfile.ZipFile(path) as z:
            info = z.getinfo(name)
        struct.pack_into("<H", data, info.header_offset + 6, info.flag_bits | 1)
        cd = data.find(b"PK\x01\x02", 0)
        while cd != -1:
            n = struct.unpack_from("<H", data, cd + 28)[0]
            if bytes(data[cd + 46:cd + 46 + n]) == name.encode():
                struct.pack_into("<H", data, cd + 8, info.flag_bits | 1)
            cd = data.find(b"PK\x01\x02", cd + 4)
        open(path, "wb").write(bytes(data))

    set_encrypted(p("z-encrypted.zip"), "secret.md")
    case("z-encrypted", "z-encrypted.zip", "refuse", "encrypted")
    write_zip(p("z-bzip2.zip"), [(zinfo("notes.md", compress=zipfile.ZIP_BZIP2), payload)])
    case("z-bzip2", "z-bzip2.zip", "refuse", "compression method")

    # --- links and special files ---------------------------------------------
    write_zip(p("z-symlink-inside.zip"), [(zinfo("link.md", 0o777, stat.S_IFLNK), b"SKILL.md")])
    case("z-symlink-inside", "z-symlink-inside.zip", "refuse", "symbolic links")
    write_zip(p("z-symlink-escape.zip"), [(zinfo("link", 0o777, stat.S_IFLNK), b"../../../../../../etc/passwd")])
    case("z-symlink-escape", "z-symlink-escape.zip", "refuse", "symbolic links")
    # A symlink folder, then a file written "through" it.
    write_zip(
        p("z-symlink-dir-then-file.zip"),
        [(zinfo("up", 0o777, stat.S_IFLNK), b"../../.."), (f"up/{evil}", payload)],
    )
    case("z-symlink-dir-then-file", "z-symlink-dir-then-file.zip", "refuse", "symbolic links")
    write_zip(p("z-fifo.zip"), [(zinfo("pipe", 0o644, stat.S_IFIFO), b"")])
    case("z-fifo", "z-fifo.zip", "refuse", "FIFO")

    tar_specials = [
        ("symlink-inside", tinfo("link.md", kind=tarfile.SYMTYPE, link="SKILL.md"), "symbolic links"),
        ("symlink-escape", tinfo("link", kind=tarfile.SYMTYPE, link="../../../../../../etc/passwd"), "symbolic links"),
        ("symlink-absolute", tinfo("abs", kind=tarfile.SYMTYPE, link="/etc/passwd"), "symbolic links"),
        ("hardlink-inside", tinfo("hard.md", kind=tarfile.LNKTYPE, link="SKILL.md"), "hard links"),
        ("hardlink-escape", tinfo("hard", kind=tarfile.LNKTYPE, link="/etc/passwd"), "hard links"),
        ("fifo", tinfo("pipe", kind=tarfile.FIFOTYPE), "FIFO"),
        ("char-device", tinfo("null", kind=tarfile.CHRTYPE), "character device"),
        ("block-device", tinfo("disk", kind=tarfile.BLKTYPE), "block device"),
    ]
    for cid, info, why in tar_specials:
        write_targz(p(f"t-{cid}.tar.gz"), [(info, None)])
        case(f"t-{cid}", f"t-{cid}.tar.gz", "refuse", why)
    write_targz(
        p("t-symlink-dir-then-file.tar.gz"),
        [(tinfo("up", kind=tarfile.SYMTYPE, link="../../.."), None), (tinfo(f"up/{evil}"), payload)],
    )
    case("t-symlink-dir-then-file", "t-symlink-dir-then-file.tar.gz", "refuse", "symbolic links")

    # --- limits ----------------------------------------------------------------
    zeros = bytes(15 * MIB)  # under the 16 MiB file cap, ~1000:1 under deflate
    with zipfile.ZipFile(p("z-bomb.zip"), "w", compresslevel=9) as z:
        z.writestr(zinfo("SKILL.md"), SKILL_MD)
        z.writestr(zinfo("bomb.bin"), zeros)
    case("z-bomb", "z-bomb.zip", "refuse", "decompression bomb")
    write_targz(p("t-bomb.tar.gz"), [(tinfo("bomb.bin"), zeros)])
    case("t-bomb", "t-bomb.tar.gz", "refuse", "decompression bomb")

    big = bytes(17 * MIB)  # stored: ratio 1, so only the file cap can refuse it
    write_zip(p("z-file-too-large.zip"), [(zinfo("big.bin", compress=zipfile.ZIP_STORED), big)])
    case("z-file-too-large", "z-file-too-large.zip", "refuse", "a file larger than 16 MiB")
    rng = random.Random(7)
    noise = rng.randbytes(17 * MIB)  # incompressible: ratio ~1 under gzip too
    write_targz(p("t-file-too-large.tar.gz"), [(tinfo("big.bin"), noise)])
    case("t-file-too-large", "t-file-too-large.tar.gz", "refuse", "a file larger than 16 MiB")

    many = [(f"f/{i:05}", b"") for i in range(10_001)]
    write_zip(p("z-too-many-entries.zip"), many)
    case("z-too-many-entries", "z-too-many-entries.zip", "refuse", "more than 10000 entries")
    write_targz(p("t-too-many-entries.tar.gz"), [(tinfo(n), d) for n, d in many])
    case("t-too-many-entries", "t-too-many-entries.tar.gz", "refuse", "more than 10000 entries")

    # --- broken and badly shaped archives --------------------------------------
    write_targz(p("good-for-truncation.tar.gz"), [(tinfo("notes.md"), rng.randbytes(256 * 1024))])
    data = open(p("good-for-truncation.tar.gz"), "rb").read()
    os.remove(p("good-for-truncation.tar.gz"))
    open(p("t-truncated.tar.gz"), "wb").write(data[: len(data) // 2])
    case("t-truncated", "t-truncated.tar.gz", "refuse", "truncated or corrupt")
    open(p("t-truncated-trailer.tar.gz"), "wb").write(data[:-4])  # only the gzip length is missing
    case("t-truncated-trailer", "t-truncated-trailer.tar.gz", "refuse", "truncated or corrupt")
    open(p("z-not-a-zip.zip"), "wb").write(b"PK\x03\x04" + rng.randbytes(1000))
    case("z-not-a-zip", "z-not-a-zip.zip", "refuse", "not a readable zip archive")

    write_zip(p("z-no-skill-md.zip"), [("README.md", b"# no skill here\n")], skill_md=False)
    case("z-no-skill-md", "z-no-skill-md.zip", "refuse", "no SKILL.md at the root")
    write_targz(p("t-no-skill-md.tar.gz"), [(tinfo("README.md"), b"# no skill here\n")], skill_md=False)
    case("t-no-skill-md", "t-no-skill-md.tar.gz", "refuse", "no SKILL.md at the root")
    write_zip(p("z-wrapper.zip"), [(f"{NAME}/SKILL.md", SKILL_MD), (f"{NAME}/notes.md", b"n")], skill_md=False)
    case("z-wrapper", "z-wrapper.zip", "refuse", "wrapper folder")
    write_targz(
        p("t-wrapper.tar.gz"),
        [(tinfo(f"{NAME}/", kind=tarfile.DIRTYPE, mode=0o755), None),
         (tinfo(f"{NAME}/SKILL.md"), SKILL_MD), (tinfo(f"{NAME}/notes.md"), b"n")],
        skill_md=False,
    )
    case("t-wrapper", "t-wrapper.tar.gz", "refuse", "wrapper folder")
    write_zip(p("z-bad-frontmatter.zip"), [("SKILL.md", b"# no frontmatter\n")], skill_md=False)
    case("z-bad-frontmatter", "z-bad-frontmatter.zip", "refuse", "not a valid skill")
    other = SKILL_MD.replace(b"name: hostile", b"name: someone-else")
    write_targz(p("t-wrong-name.tar.gz"), [(tinfo("SKILL.md"), other)], skill_md=False)
    case("t-wrong-name", "t-wrong-name.tar.gz", "refuse", "not a valid skill")

    # --- good archives: same files, same tree digest -----------------------------
    src = p("good-src")
    os.makedirs(os.path.join(src, "scripts"), exist_ok=True)
    os.makedirs(os.path.join(src, "docs", "deep"), exist_ok=True)
    files = {
        "SKILL.md": SKILL_MD,
        "scripts/run.sh": b"#!/bin/sh\necho hi\n",
        "docs/guide.md": b"# Guide\n" * 100,
        "docs/deep/data.bin": rng.randbytes(300_000),
        ".hidden": b"dotfile\n",
    }
    for rel, content in files.items():
        with open(os.path.join(src, rel), "wb") as f:
            f.write(content)
    os.chmod(os.path.join(src, "scripts/run.sh"), 0o755)
    with zipfile.ZipFile(p("good.zip"), "w") as z:
        z.writestr(zinfo("scripts/", 0o755, stat.S_IFDIR), b"")
        for rel, content in files.items():
            mode = 0o755 if rel == "scripts/run.sh" else 0o644
            z.writestr(zinfo(rel, mode), content)
    case("good-zip", "good.zip", "accept", "", tree_of="good-src")
    with tarfile.open(p("good.tar.gz"), "w:gz") as t:
        for rel in sorted(files):
            t.add(os.path.join(src, rel), arcname=rel)
    case("good-tar-gz", "good.tar.gz", "accept", "", tree_of="good-src")
    # What `git archive` writes: a PAX global header (the commit id) first.
    write_targz(
        p("good-pax-global.tar.gz"),
        [(tinfo(rel, mode=0o755 if rel.endswith(".sh") else 0o644), content) for rel, content in files.items()
         if rel != "SKILL.md"],
        pax_global={"comment": "0123456789abcdef0123456789abcdef01234567"},
    )
    case("good-pax-global", "good-pax-global.tar.gz", "accept", "", tree_of="good-src")

    with open(p("manifest.json"), "w") as f:
        json.dump({"marker": marker, "cases": cases}, f, indent=1)


if __name__ == "__main__":
    main()
