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
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let cleaned: String = text
        .chars()
        .filter(|&c| !is_invisible(c) && !is_variation_selector(c))
        .map(|c| {
            if c != '\n' && c.is_whitespace() {
                ' '
            } else {
                c
            }
        })
        .nfkc()
        .collect();
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
fn latin_look_alike(c: char) -> Option<char> {
    Some(match c {
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
