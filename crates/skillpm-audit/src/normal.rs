//! The text the rules read (docs/audit.md#hidden-characters): hidden
//! characters dropped, spaces made spaces, NFKC, and look-alike letters
//! read as Latin.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

use crate::escape::is_invisible;

/// Variation selectors (they pick a glyph; in a run, or after a Latin
/// letter, they carry hidden data).
pub(super) fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' | '\u{180B}'..='\u{180D}' | '\u{180F}')
}

/// The text the rules read: hidden characters dropped, every space a
/// space, NFKC (fullwidth and other compatibility forms become the letters
/// they look like), and words that mix Latin letters with Cyrillic or Greek
/// look-alikes (or are made only of look-alikes) spelled in Latin, so
/// `сurl` with a Cyrillic `с` reads `curl`. Line feeds are kept, so lines
/// keep their numbers. ASCII text comes back as it is.
pub(super) fn normalize(text: &str) -> Cow<'_, str> {
    // Terminal escapes (colours around each word of a captured log) show
    // as nothing: the words are read without them.
    if text.contains('\x1b') {
        return Cow::Owned(normalize(&strip_terminal_escapes(text)).into_owned());
    }
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let cleaned: String = text
        .chars()
        .filter(|&c| !is_invisible(c) && !is_variation_selector(c) && !is_format_control(c))
        .map(|c| {
            if c != '\n' && (c.is_whitespace() || is_blank(c)) {
                ' '
            } else {
                c
            }
        })
        .nfkc()
        .collect();
    let cleaned = strip_decoration(&cleaned).unwrap_or(cleaned);
    let mut out = String::with_capacity(cleaned.len());
    let mut word = String::new();
    // A line written in Cyrillic or Greek (a letter of theirs with no Latin
    // look-alike: `в`, `л`, `λ`) keeps its words made only of look-alikes
    // (`Не`, `он`): they are that language's, not a disguise.
    let native: Vec<bool> = cleaned
        .split('\n')
        .map(|line| {
            line.chars().any(|c| {
                matches!(c, '\u{0370}'..='\u{03FF}' | '\u{0400}'..='\u{04FF}')
                    && c.is_alphabetic()
                    && latin_look_alike(c).is_none()
            })
        })
        .collect();
    let mut line = 0;
    let flush = |word: &mut String, out: &mut String, native: bool| {
        let has_latin = word.chars().any(|c| c.is_ascii_alphabetic());
        let all_alike = word
            .chars()
            .all(|c| c.is_ascii_alphabetic() || latin_look_alike(c).is_some());
        if all_alike && (has_latin || (!word.is_empty() && !native)) {
            out.extend(word.chars().map(|c| latin_look_alike(c).unwrap_or(c)));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in cleaned.chars() {
        if c.is_alphabetic() {
            word.push(c);
        } else {
            flush(
                &mut word,
                &mut out,
                native.get(line).copied().unwrap_or(false),
            );
            out.push(c);
            if c == '\n' {
                line += 1;
            }
        }
    }
    flush(
        &mut word,
        &mut out,
        native.get(line).copied().unwrap_or(false),
    );
    Cow::Owned(out)
}

/// The Latin letter a Cyrillic, Greek or other letter is drawn like (the
/// confusables that matter for commands and instructions).
/// Characters that show as an empty cell but are not Unicode spaces: the
/// braille blank (U+2800) and the Hangul fillers. Read as a space, so a
/// sentence spaced with them reads as words (docs/audit.md#disguises).
fn is_blank(c: char) -> bool {
    matches!(
        c,
        '\u{2800}' | '\u{3164}' | '\u{FFA0}' | '\u{115F}' | '\u{1160}'
    )
}

/// Format controls outside the shared hidden list that render as nothing
/// inside a word: the shorthand format controls (U+1BCA0–U+1BCA3).
fn is_format_control(c: char) -> bool {
    matches!(c, '\u{1BCA0}'..='\u{1BCA3}')
}

/// A Latin word whose every letter carries a combining mark (`u̱p̱ḻo̱a̱ḏ`)
/// is decoration meant to make it unreadable to a matcher, not an accent
/// of a language: such words are read without their marks. Words with
/// accents on some letters (`réponds`, `não`) keep them. `None`: no word can be
/// decorated (no combining mark, no letter of Latin Extended Additional).
fn strip_decoration(text: &str) -> Option<String> {
    use unicode_normalization::char::is_combining_mark;
    // After NFKC a decorated word holds combining marks that have no
    // precomposed form, or letters of Latin Extended Additional.
    if !text
        .chars()
        .any(|c| is_combining_mark(c) || ('\u{1E00}'..='\u{1EFF}').contains(&c))
    {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        // Only words of Latin letters with marks can be decorated.
        let marked_latin = word.chars().all(|c| {
            c.is_ascii_alphabetic()
                || is_combining_mark(c)
                || matches!(c, '\u{C0}'..='\u{24F}' | '\u{1E00}'..='\u{1EFF}')
        }) && !word.is_ascii();
        if !marked_latin {
            out.push_str(word);
            word.clear();
            return;
        }
        let decomposed: Vec<char> = word.nfd().collect();
        let letters = decomposed
            .iter()
            .filter(|c| !is_combining_mark(**c))
            .count();
        let marked = decomposed
            .windows(2)
            .filter(|w| !is_combining_mark(w[0]) && is_combining_mark(w[1]))
            .count();
        let latin = decomposed
            .iter()
            .filter(|c| !is_combining_mark(**c))
            .all(|c| c.is_ascii_alphabetic());
        if latin && letters >= 2 && marked == letters {
            out.extend(decomposed.into_iter().filter(|c| !is_combining_mark(*c)));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphabetic() || is_combining_mark(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    Some(out)
}

/// `text` without its terminal escape sequences: CSI (`ESC [ … final`),
/// OSC (`ESC ] … BEL` or `ESC \\`) and two-character escapes.
fn strip_terminal_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('[') => {
                chars.next();
                // Parameters and intermediates, then one final byte.
                while let Some(&n) = chars.peek() {
                    if n == '\n' {
                        break;
                    }
                    chars.next();
                    if ('@'..='~').contains(&n) {
                        break;
                    }
                }
            }
            Some(']') => {
                chars.next();
                while let Some(&n) = chars.peek() {
                    if n == '\n' {
                        break;
                    }
                    chars.next();
                    if n == '\x07' {
                        break;
                    }
                    if n == '\x1b' {
                        if chars.peek() == Some(&'\\') {
                            chars.next();
                        }
                        break;
                    }
                }
            }
            Some(&n) if n != '\n' => {
                chars.next();
            }
            _ => {}
        }
    }
    out
}

fn latin_look_alike(c: char) -> Option<char> {
    Some(match c {
        // Lisu letters that are Latin capitals' shapes.
        'ꓮ' => 'A',
        'ꓐ' => 'B',
        'ꓚ' => 'C',
        'ꓓ' => 'D',
        'ꓰ' => 'E',
        'ꓝ' => 'F',
        'ꓖ' => 'G',
        'ꓧ' => 'H',
        'ꓲ' => 'I',
        'ꓙ' => 'J',
        'ꓗ' => 'K',
        'ꓡ' => 'L',
        'ꓟ' => 'M',
        'ꓠ' => 'N',
        'ꓳ' => 'O',
        'ꓑ' => 'P',
        'ꓣ' => 'R',
        'ꓢ' => 'S',
        'ꓔ' => 'T',
        'ꓴ' => 'U',
        'ꓦ' => 'V',
        'ꓪ' => 'W',
        'ꓫ' => 'X',
        'ꓬ' => 'Y',
        'ꓜ' => 'Z',
        // Latin small capitals (not folded by NFKC).
        'ᴀ' => 'a',
        'ʙ' => 'b',
        'ᴄ' => 'c',
        'ᴅ' => 'd',
        'ᴇ' => 'e',
        'ꜰ' => 'f',
        'ɢ' => 'g',
        'ʜ' => 'h',
        'ɪ' => 'i',
        'ᴊ' => 'j',
        'ᴋ' => 'k',
        'ʟ' => 'l',
        'ᴍ' => 'm',
        'ɴ' => 'n',
        'ᴏ' => 'o',
        'ᴘ' => 'p',
        'ʀ' => 'r',
        'ꜱ' => 's',
        'ᴛ' => 't',
        'ᴜ' => 'u',
        'ᴠ' => 'v',
        'ᴡ' => 'w',
        'ʏ' => 'y',
        'ᴢ' => 'z',
        // Armenian and Latin look-alikes.
        'ո' => 'n',
        'ց' => 'g',
        'ɩ' => 'i',
        'а' | 'α' | 'ɑ' => 'a',
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'с' | 'ϲ' => 'c',
        'С' | 'Ϲ' => 'C',
        'ԁ' => 'd',
        'е' | 'ε' => 'e',
        'Е' | 'Ε' => 'E',
        'һ' => 'h',
        'Н' | 'Η' => 'H',
        'і' | 'ι' | 'ı' => 'i',
        'І' | 'Ι' => 'I',
        'ј' => 'j',
        'Ј' => 'J',
        'κ' | 'к' => 'k',
        'К' | 'Κ' => 'K',
        'ӏ' => 'l',
        'М' | 'Μ' => 'M',
        'Ν' => 'N',
        'о' | 'ο' | 'օ' => 'o',
        'О' | 'Ο' => 'O',
        'р' | 'ρ' => 'p',
        'Р' | 'Ρ' => 'P',
        'ԛ' => 'q',
        'ѕ' => 's',
        'Ѕ' => 'S',
        'Т' | 'Τ' => 'T',
        'υ' | 'ս' => 'u',
        'ν' | 'ѵ' => 'v',
        'ԝ' => 'w',
        'х' | 'χ' => 'x',
        'Х' | 'Χ' => 'X',
        'у' => 'y',
        'У' | 'Υ' => 'Y',
        'Ζ' => 'Z',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn blanks_small_capitals_and_marked_words_read_as_latin() {
        // Honest text keeps its accents and its scripts.
        assert_eq!(
            normalize("réponds à l'utilisateur"),
            "réponds à l'utilisateur"
        );
        assert_eq!(normalize("şimdi değil"), "şimdi değil");
        // Braille blanks as spaces, shorthand controls dropped.
        assert_eq!(normalize("send\u{2800}the\u{2800}keys"), "send the keys");
        assert_eq!(normalize("cu\u{1BCA1}rl"), "curl");
        // Latin small capitals and every-letter marks.
        assert_eq!(normalize("ᴅᴇʟᴇᴛᴇ ᴇᴠᴇʀʏᴛʜɪɴɢ"), "delete everything");
        assert_eq!(normalize("s\u{332}e\u{332}n\u{332}d\u{332} it"), "send it");
    }

    #[test]
    fn terminal_escapes_and_lisu_capitals_read_as_what_they_show() {
        // A coloured log line reads as its text; a Lisu letter with no
        // Latin shape stays.
        assert_eq!(
            normalize("\x1b[32mPASS\x1b[0m src/app.test.ts"),
            "PASS src/app.test.ts"
        );
        assert_eq!(normalize("ꓡꓲ ꓢꓴ ꓒꓸ"), "LI SU ꓒꓸ");
        // Words split by colour codes, and an all-caps note in Lisu
        // capitals, read as the words they show.
        assert_eq!(
            normalize("\x1b[2mOpen\x1b[0m \x1b[1mthe\x1b[0m \x1b[33mpage\x1b[0m"),
            "Open the page"
        );
        assert_eq!(normalize("ꓲꓟꓑꓳꓣꓔꓮꓠꓔ"), "IMPORTANT");
    }
}
