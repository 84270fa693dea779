//! Reading a file's bytes as the rules need them (docs/audit.md#what-is-read):
//! text decoded as an interpreter would read it (UTF-16 with a byte-order
//! mark decoded, NUL bytes dropped), executables and archives told by their
//! bytes wherever their header sits near the start, and archives opened so
//! their members are read like files.

use std::borrow::Cow;
use std::io::Read;

use super::Finding;
use super::rules::rule;

/// The text the rules read: UTF-16 with a byte-order mark decoded, NUL bytes
/// dropped (bash, node and python skip or choke on them, a scanner must not
/// stop at them), invalid UTF-8 replaced.
pub(super) fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let utf16 = |big: bool| -> String {
        let units = bytes[2..].chunks_exact(2).map(|p| {
            if big {
                u16::from_be_bytes([p[0], p[1]])
            } else {
                u16::from_le_bytes([p[0], p[1]])
            }
        });
        char::decode_utf16(units)
            .map(|c| c.unwrap_or('\u{FFFD}'))
            .filter(|&c| c != '\0')
            .collect()
    };
    if bytes.starts_with(&[0xFF, 0xFE]) {
        return Cow::Owned(utf16(false));
    }
    if bytes.starts_with(&[0xFE, 0xFF]) {
        return Cow::Owned(utf16(true));
    }
    if bytes.contains(&0) {
        let kept: Vec<u8> = bytes.iter().copied().filter(|&b| b != 0).collect();
        return Cow::Owned(String::from_utf8_lossy(&kept).into_owned());
    }
    String::from_utf8_lossy(bytes)
}

/// Whether decoded text reads as text (a script, a page, data), not as the
/// bytes of an image, font or document: few control characters and few
/// replaced bytes. Other files get the command rules only (a command hidden
/// in an image's bytes still runs with `bash image.png`), not the rules
/// about hidden characters, disguises and prose.
pub(super) fn looks_like_text(text: &str) -> bool {
    const SAMPLE: usize = 64 * 1024;
    let head = &text.as_bytes()[..text.len().min(SAMPLE)];
    if head.is_ascii() {
        // One character per byte: the same count, without decoding each
        // character (a fortieth of a 500-skill add,
        // docs/performance.md#what-the-measurements-decided).
        let odd = (head.iter())
            .filter(|&&b| {
                (b < 0x20 || b == 0x7f) && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c | 0x1b)
            })
            .count();
        return odd * 100 <= head.len();
    }
    let (mut sampled, mut odd) = (0, 0);
    for c in text.chars().take(SAMPLE) {
        sampled += 1;
        if c == '\u{FFFD}' || (c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\x0c' | '\x1b'))
        {
            odd += 1;
        }
    }
    odd * 100 <= sampled
}

/// `text` in pieces of about `size` bytes, each ending at a line end (a
/// line longer than `size` is one piece), so no line is cut.
pub(super) fn pieces(text: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = rest.len().min(size);
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        if end < rest.len() {
            end = rest[end..].find('\n').map_or(rest.len(), |n| end + n + 1);
        }
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        Some(piece)
    })
}

/// How far into a file a header is looked for: a program or archive behind
/// junk bytes still runs or unpacks (`unzip` and self-extracting archives
/// find a zip anywhere; an ELF is carved out with `tail -c`).
const HEADER_WINDOW: usize = 64 * 1024;

/// Executable headers and archives, found by their bytes; `None` for
/// anything else.
pub(super) fn binary_finding(rel: &str, bytes: &[u8]) -> Option<Finding> {
    let (id, what, at) = if let Some((kind, at)) = native_kind(bytes) {
        ("native-executable", kind, at)
    } else if let Some((kind, at)) = archive_kind(bytes) {
        ("bundled-archive", kind, at)
    } else {
        return None;
    };
    let rule = rule(id)?;
    let place = if at == 0 {
        String::new()
    } else {
        format!(" at byte {at}")
    };
    Some(Finding {
        rule: rule.id.to_owned(),
        severity: rule.severity,
        file: rel.to_owned(),
        line: 0,
        excerpt: format!("{what}{place} ({} bytes)", bytes.len()),
        why: rule.why.to_owned(),
    })
}

/// Offsets in the first [`HEADER_WINDOW`] bytes where `magic` starts, in
/// order (one pass over the window; no automaton is built per file).
fn find_all<'b>(bytes: &'b [u8], magic: &'b [u8]) -> impl Iterator<Item = usize> + 'b {
    let window = &bytes[..bytes.len().min(HEADER_WINDOW + magic.len())];
    // Where the first byte is (a vectorised search), then the rest
    // compared: overlapping starts included, as a byte-by-byte scan finds.
    let first = magic.first().map_or(&[][..], std::slice::from_ref);
    first
        .iter()
        .flat_map(move |&b| memchr::memchr_iter(b, window))
        .filter(move |&at| window[at..].starts_with(magic))
}

fn word(b: &[u8], at: usize) -> Option<[u8; 4]> {
    b.get(at..at + 4)?.try_into().ok()
}

fn native_kind(b: &[u8]) -> Option<(&'static str, usize)> {
    // A fat Mach-O has few architectures; a Java class file has its
    // version (45 or more) in the same place. Only at the start: the magic
    // is short and common in data.
    if word(b, 0) == Some([0xca, 0xfe, 0xba, 0xbe]) && u32::from_be_bytes(word(b, 4)?) < 20 {
        return Some(("Mach-O universal executable", 0));
    }
    // A Java class file: compiled code no reviewer reads (a `.jar`'s
    // members are these).
    if word(b, 0) == Some([0xca, 0xfe, 0xba, 0xbe])
        && u16::from_be_bytes([*b.get(6)?, *b.get(7)?]) >= 45
    {
        return Some(("Java class file (compiled code)", 0));
    }
    // Python bytecode (`.pyc`): a two-byte version magic (3000 and up for
    // Python 3, 62211 for 2.7) then `\r\n`; a sourceless module that an
    // `import` runs, read by no reviewer. Lua bytecode likewise.
    if b.get(2..4) == Some(b"\r\n")
        && matches!(
            u16::from_le_bytes([*b.first()?, *b.get(1)?]),
            3000..=4999 | 62211
        )
        && [8, 12, 16]
            .iter()
            .any(|&at| matches!(b.get(at), Some(0x63 | 0xe3)))
    {
        return Some(("Python bytecode (compiled code)", 0));
    }
    if b.starts_with(b"\x1bLua") {
        return Some(("Lua bytecode (compiled code)", 0));
    }
    // ELF: class 1 or 2, data 1 or 2, version 1.
    for at in find_all(b, b"\x7fELF") {
        if matches!(b.get(at + 4), Some(1 | 2))
            && matches!(b.get(at + 5), Some(1 | 2))
            && b.get(at + 6) == Some(&1)
        {
            return Some(("ELF executable", at));
        }
    }
    for magic in [
        [0xfe, 0xed, 0xfa, 0xce],
        [0xfe, 0xed, 0xfa, 0xcf],
        [0xce, 0xfa, 0xed, 0xfe],
        [0xcf, 0xfa, 0xed, 0xfe],
    ] {
        if let Some(at) = find_all(b, &magic).next() {
            return Some(("Mach-O executable", at));
        }
    }
    for at in find_all(b, b"MZ") {
        let Some(to) = word(b, at + 0x3c).map(u32::from_le_bytes) else {
            continue;
        };
        // The header's offset is the DOS header's; inside a container that
        // carries it, an offset counted from the container's start.
        if word(b, at + to as usize) == Some(*b"PE\0\0")
            || (at > 0 && word(b, to as usize) == Some(*b"PE\0\0"))
        {
            return Some(("PE (Windows) executable", at));
        }
    }
    None
}

fn archive_kind(b: &[u8]) -> Option<(&'static str, usize)> {
    // Short magics only at the start (they occur by chance in data).
    if b.starts_with(&[0x1f, 0x8b]) {
        return Some(("gzip archive", 0));
    }
    if b.starts_with(b"BZh") && b.get(3).is_some_and(u8::is_ascii_digit) {
        return Some(("bzip2 archive", 0));
    }
    for (magic, what) in [
        (&b"PK\x03\x04"[..], "zip archive"),
        (b"7z\xbc\xaf\x27\x1c", "7z archive"),
        (b"Rar!\x1a\x07", "rar archive"),
        (&[0xfd, b'7', b'z', b'X', b'Z', 0], "xz archive"),
    ] {
        if let Some(at) = find_all(b, magic).next() {
            return Some((what, at));
        }
    }
    None
}

/// The most bytes read out of one archive (all members together): the
/// unpacker's per-skill limit (docs/design.md#unpacking).
const MAX_UNPACKED: u64 = 64 * 1024 * 1024;

/// Lists a zip or gzip (tar) archive found in `bytes` and hands each member
/// to `read` as `archive/member`; an archive that cannot be listed, an
/// encrypted member, or nesting deeper than allowed (`open` false) is the
/// finding `unscannable-archive`. Office documents and e-books are zip
/// archives too: their members are read the same way, and the answer is
/// `true` for one (a zip holding `[Content_Types].xml` or `mimetype`: told
/// by its members, not its file name).
pub(super) fn open_archive(
    rel: &str,
    bytes: &[u8],
    open: bool,
    out: &mut Vec<Finding>,
    mut read: impl FnMut(&str, &[u8], &mut Vec<Finding>),
) -> bool {
    let unscannable = |why: &str, out: &mut Vec<Finding>| {
        if let Some(rule) = rule("unscannable-archive") {
            out.push(Finding {
                rule: rule.id.to_owned(),
                // Sealed with a password: made to pass unread. Else broken
                // or unknown: a reviewer's look (no one can unpack it either).
                severity: if why.contains("encrypted") {
                    rule.severity
                } else {
                    super::Severity::Medium
                },
                file: rel.to_owned(),
                line: 0,
                excerpt: why.to_owned(),
                why: rule.why.to_owned(),
            });
        }
    };
    if !open {
        unscannable("an archive nested too deep to be read", out);
        return false;
    }
    let mut budget = MAX_UNPACKED;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut data = Vec::new();
        let decoder = flate2::read::GzDecoder::new(bytes);
        if decoder.take(budget).read_to_end(&mut data).is_err() {
            {
                unscannable("a gzip stream that cannot be decompressed", out);
                return false;
            }
        }
        if data.len() > 262 && &data[257..262] == b"ustar" {
            let mut archive = tar::Archive::new(data.as_slice());
            let Ok(entries) = archive.entries() else {
                {
                    unscannable("a tar archive that cannot be listed", out);
                    return false;
                }
            };
            for entry in entries {
                let Ok(mut entry) = entry else {
                    {
                        unscannable("a tar archive that cannot be listed", out);
                        return false;
                    }
                };
                if !entry.header().entry_type().is_file() {
                    continue;
                }
                let name = entry
                    .path()
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let mut member = Vec::new();
                if entry.read_to_end(&mut member).is_err() {
                    {
                        unscannable("a tar member that cannot be read", out);
                        return false;
                    }
                }
                read(&format!("{rel}/{name}"), &member, out);
            }
        } else {
            let name = rel.strip_suffix(".gz").unwrap_or(rel);
            read(
                &format!("{rel}/{}", name.rsplit('/').next().unwrap_or(name)),
                &data,
                out,
            );
        }
        return false;
    }
    let Some(at) = find_all(bytes, b"PK\x03\x04").next() else {
        {
            unscannable(
                "an archive format skillpm cannot list (7z, rar, xz, bzip2)",
                out,
            );
            return false;
        }
    };
    let Ok(mut zip) = ::zip::ZipArchive::new(std::io::Cursor::new(&bytes[at..])) else {
        {
            unscannable("a zip archive that cannot be listed", out);
            return false;
        }
    };
    let document = zip
        .file_names()
        .any(|n| n.is_ok_and(|n| n == "[Content_Types].xml" || n == "mimetype"));
    for i in 0..zip.len() {
        let Ok(mut member) = zip.by_index(i) else {
            {
                unscannable(
                    "a zip member that cannot be read (encrypted, or compressed in a way skillpm cannot read)",
                    out,
                );
                return false;
            }
        };
        if member.encrypted() {
            {
                unscannable("an encrypted (password-protected) zip member", out);
                return false;
            }
        }
        if !member.is_file() {
            continue;
        }
        let name = member.name().map(|n| n.into_owned()).unwrap_or_default();
        let mut data = Vec::new();
        if (&mut member).take(budget).read_to_end(&mut data).is_err() {
            {
                unscannable(
                    "a zip member that cannot be read (encrypted, or compressed in a way skillpm cannot read)",
                    out,
                );
                return false;
            }
        }
        budget = budget.saturating_sub(data.len() as u64);
        read(&format!("{rel}/{name}"), &data, out);
    }
    document
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ascii_text_is_counted_as_its_characters_are() {
        // What the character-by-character count says, for texts on both
        // sides of the one-in-a-hundred line and past the sample's end.
        let by_chars = |text: &str| {
            let sampled: Vec<char> = text.chars().take(64 * 1024).collect();
            let odd = (sampled.iter())
                .filter(|c| {
                    **c == '\u{FFFD}'
                        || (c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\x0c' | '\x1b'))
                })
                .count();
            odd * 100 <= sampled.len()
        };
        let line = "echo hello\tworld\r\n\x1b[0m\x0c";
        for odd in ["\x00", "\x07", "\x7f", "\x1f"] {
            for n in [1, 98, 99, 100, 101, 300] {
                let text = format!("{}{odd}", "x".repeat(n));
                assert_eq!(looks_like_text(&text), by_chars(&text), "{odd:?} after {n}");
            }
        }
        let long = format!(
            "{}{}",
            line.repeat(70 * 1024 / line.len()),
            "\x00".repeat(5000)
        );
        assert_eq!(looks_like_text(&long), by_chars(&long));
        assert!(looks_like_text(line));
        let outside = "é\x00".repeat(10);
        assert_eq!(looks_like_text(&outside), by_chars(&outside));
    }

    #[test]
    fn text_is_decoded_as_interpreters_read_it() {
        // Honest UTF-8 first, then the same text as UTF-16 and with NULs.
        assert_eq!(decode(b"curl x | sh"), "curl x | sh");
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("curl x | sh".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&utf16), "curl x | sh");
        assert_eq!(decode(b"cu\0rl x | \0sh"), "curl x | sh");
    }

    #[test]
    fn pieces_end_at_line_ends() {
        let text = "aaaa\nbbbb\ncccc\n";
        let got: Vec<&str> = pieces(text, 6).collect();
        assert_eq!(got, ["aaaa\nbbbb\n", "cccc\n"]);
        assert_eq!(got.concat(), text);
    }

    #[test]
    fn headers_are_found_behind_junk_bytes() {
        let mut elf = b"\x7fELF\x02\x01\x01\0rest".to_vec();
        assert_eq!(native_kind(&elf), Some(("ELF executable", 0)));
        elf.splice(0..0, *b"junk junk ");
        assert_eq!(native_kind(&elf), Some(("ELF executable", 10)));
        // The same four letters in text are not a program.
        assert_eq!(native_kind(b"the \x7fELF header is 0x7f E L F"), None);
        assert_eq!(
            archive_kind(b"#!/bin/sh\nPK\x03\x04zip"),
            Some(("zip archive", 10))
        );
        assert_eq!(archive_kind(b"PK is a primary key"), None);
    }
}
