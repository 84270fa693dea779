//! Text on its way to a terminal (docs/output.md). Every string that came from a skill, an index, a lock or a
//! server is someone else's: shown raw, `ESC[6A ESC[J` erases the lines
//! above it, OSC 52 writes the clipboard, a bidirectional override reorders
//! what the person reads and a zero-width character hides a difference.
//!
//! The one escaping function is [`escape`]. The printer (`crate::printer::Printer`)
//! takes only [`Shown`], and a [`Shown`] made from a `String` is escaped:
//! the only raw bytes that reach a terminal are styles the printer paints
//! itself. [`Untrusted`] marks one field inside a message the program
//! formats: it escapes line breaks too, so a value cannot start a line of
//! its own that looks like the program's.

use std::borrow::Cow;
use std::fmt;

/// Whether `c` must not reach a terminal as itself: C0 and C1 controls (ESC
/// starts CSI and OSC sequences), DEL, and every [`is_invisible`] character.
pub fn is_hidden(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}') || is_invisible(c)
}

/// The one list of characters that show nothing, or show something else
/// than they are, in text (docs/audit.md#hidden-characters): the terminal
/// escaper writes them as escapes, the audit reports them and drops them
/// before its rules read the text. Bidirectional marks, embeddings,
/// overrides and isolates; zero-width spaces and joiners, the word joiner
/// and the invisible operators (U+2060-2065), the deprecated format
/// characters (U+206A-206F); the soft hyphen, the Arabic letter mark, the
/// Mongolian vowel separator and variation selectors (U+180B-180F), the
/// combining grapheme joiner, the Khmer inherent vowels, the Hangul fillers
/// (U+115F, U+1160, U+3164, U+FFA0), the byte-order mark, the interlinear
/// annotation characters (U+FFF9-FFFB), line and paragraph separators,
/// variation selectors (U+FE00-FE0E and U+E0100-E01EF; U+FE0F, the emoji
/// presentation selector, is kept: the audit reports it where no emoji
/// needs it), musical formatting (U+1D173-1D17A) and the tag characters.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}'
        | '\u{34f}'
        | '\u{61c}'
        | '\u{115f}' | '\u{1160}'
        | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{3164}'
        | '\u{fe00}'..='\u{fe0e}'
        | '\u{feff}'
        | '\u{ffa0}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0000}'..='\u{e007f}'
        | '\u{e0100}'..='\u{e01ef}'
    )
}

/// The one escaping function: every character [`is_hidden`] says may not be
/// shown becomes a visible escape (`\n`, `\t`, `\r`, else `\u{…}`, as
/// Rust's `char::escape_default` writes them);
/// everything else, including a backslash, stays. `keep_lines` keeps line
/// feeds and tabs (for a whole message the program formatted, whose own
/// line breaks are meant).
pub fn escape(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let keep = |c: char| keep_lines && (c == '\n' || c == '\t');
    if !text.chars().any(|c| is_hidden(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_hidden(c) || keep(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// JSON text with every character [`is_hidden`] names written as a JSON
/// `\uXXXX` escape (a surrogate pair above U+FFFF). JSON's structure is
/// ASCII, so such a character can only sit inside a string, where the
/// escape means the same character: the data is unchanged, the bytes are
/// safe to print. Line feeds stay (outside strings they are the pretty
/// printer's; inside, `serde_json` has escaped them already).
pub fn json_safe(text: String) -> String {
    if !text.chars().any(|c| is_hidden(c) && c != '\n') {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !is_hidden(c) || c == '\n' {
            out.push(c);
            continue;
        }
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            out.push_str(&format!("\\u{unit:04x}"));
        }
    }
    out
}

/// `text` escaped as one field (line breaks too): for a name or value from
/// someone else that goes into a message or a report.
pub fn printable(text: &str) -> String {
    escape(text, false).into_owned()
}

/// One value from someone else, placed inside text the program formats:
/// its `Display` is [`escape`] with line breaks escaped too.
#[derive(Debug, Clone, Copy)]
pub struct Untrusted<'a>(pub &'a str);

impl fmt::Display for Untrusted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&escape(self.0, false))
    }
}

/// A path from someone else (a folder in an agent folder, a file in a
/// skill) placed inside text the program formats: [`Untrusted`] of its
/// display form, so a line break in a name cannot start a line.
pub fn path_field(path: &std::path::Path) -> String {
    escape(&path.display().to_string(), false).into_owned()
}

/// Text that may reach a terminal. Made from a `String` or `&str` it is
/// escaped (line feeds and tabs kept); the only raw escape sequences it
/// can hold are the styles of [`Shown::styled`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown(String);

impl Shown {
    /// `text` (escaped) in the SGR style `sgr` when `on`; `sgr` is digits
    /// and `;` only (anything else is dropped, the text stays).
    pub fn styled(text: &str, sgr: &'static str, on: bool) -> Self {
        let text = escape(text, false);
        if on && !sgr.is_empty() && sgr.bytes().all(|b| b.is_ascii_digit() || b == b';') {
            Shown(format!("\x1b[{sgr}m{text}\x1b[0m"))
        } else {
            Shown(text.into_owned())
        }
    }

    /// Appends more shown text.
    pub fn push(&mut self, more: impl Into<Shown>) {
        self.0.push_str(&more.into().0);
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// On one line: the line feeds and tabs [`escape`] kept are escaped
    /// too (everything else was escaped when the text was made).
    pub fn one_line(self) -> Self {
        if !self.0.contains(['\n', '\t']) {
            return self;
        }
        Shown(self.0.replace('\n', "\\n").replace('\t', "\\t"))
    }

    /// Without trailing white space (line feeds included).
    pub fn trim_end(mut self) -> Self {
        let len = self.0.trim_end().len();
        self.0.truncate(len);
        self
    }
}

impl From<&str> for Shown {
    fn from(text: &str) -> Self {
        Shown(escape(text, true).into_owned())
    }
}

impl From<String> for Shown {
    fn from(text: String) -> Self {
        match escape(&text, true) {
            Cow::Borrowed(_) => Shown(text),
            Cow::Owned(escaped) => Shown(escaped),
        }
    }
}

impl From<&String> for Shown {
    fn from(text: &String) -> Self {
        Shown::from(text.as_str())
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_range_is_escaped() {
        let ranges: &[(u32, u32)] = &[
            (0x00, 0x1f),
            (0x7f, 0x9f),
            (0x200b, 0x200f),
            (0x202a, 0x202e),
            (0x2060, 0x206f),
            (0xad, 0xad),
            (0x61c, 0x61c),
            (0x3164, 0x3164),
            (0xfe00, 0xfe0e),
            (0xfeff, 0xfeff),
            (0xfff9, 0xfffb),
            (0xe0000, 0xe007f),
            (0xe0100, 0xe01ef),
        ];
        for &(lo, hi) in ranges {
            for cp in lo..=hi {
                let c = char::from_u32(cp).unwrap();
                let text = format!("a{c}b");
                let shown = escape(&text, false);
                assert!(
                    !shown.chars().any(is_hidden),
                    "U+{cp:04X} survived: {shown:?}"
                );
                assert!(shown.starts_with('a') && shown.ends_with('b'), "{shown:?}");
                assert!(shown.len() > 2, "U+{cp:04X} was dropped, not shown");
            }
        }
    }

    #[test]
    fn plain_text_is_kept_and_lines_only_when_asked() {
        assert!(matches!(
            escape("Bash(git:*) Read ✓ ü", false),
            Cow::Borrowed(_)
        ));
        assert_eq!(escape("a\nb\tc", true), "a\nb\tc");
        assert_eq!(escape("a\nb\tc", false), "a\\nb\\tc");
        assert_eq!(escape("\x1b[6A\x1b[J", true), "\\u{1b}[6A\\u{1b}[J");
        assert_eq!(escape("\u{202e}x", true), "\\u{202e}x");
        assert_eq!(Untrusted("1.0\r\nevil").to_string(), "1.0\\r\\nevil");
    }

    #[test]
    fn shown_from_text_is_escaped_and_styles_are_the_only_raw_sequences() {
        let s = Shown::from(format!("warning \x1b]52;c;ZXZpbA==\x07 {}", 1));
        assert!(!s.as_str().contains('\x1b'), "{s}");
        let mut s = Shown::styled("runs:", "33", true);
        s.push(" x\x1b[J");
        assert_eq!(s.as_str(), "\x1b[33mruns:\x1b[0m x\\u{1b}[J");
        assert_eq!(Shown::styled("a", "1m\x1b[2J", true).as_str(), "a");
        assert_eq!(Shown::styled("a\x1b", "1", false).as_str(), "a\\u{1b}");
        let line = Shown::from("a\n\u{2028}\u{85}\tb").one_line();
        assert_eq!(line.as_str(), "a\\n\\u{2028}\\u{85}\\tb");
    }

    #[test]
    fn json_keeps_the_data_and_escapes_what_a_terminal_must_not_get() {
        let value = serde_json::json!({
            "name": "ok\u{202e}gpj.exe\u{9b}2J\u{e0041}\u{200b}",
            "line": "a\nb\u{1b}[6A",
        });
        let text = json_safe(serde_json::to_string_pretty(&value).unwrap());
        assert!(!text.chars().any(|c| is_hidden(c) && c != '\n'), "{text}");
        assert!(
            text.contains("\\u202e") && text.contains("\\udb40\\udc41"),
            "{text}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }
}
