//! The `<available_skills>` block the `skill` tool's description carries,
//! held to a character budget so skill metadata never floods the context.
//!
//! Skills are considered in precedence order (the most specific scope
//! first): each one that still fits is kept, each one that does not is
//! left out and named, so a long description low in the order cannot push
//! out a project's own skills. The kept ones are then listed by name.

use crate::catalog::CatalogSkill;

/// The budget when the context size is unknown.
pub const DEFAULT_BUDGET_CHARS: usize = 16_000;

/// Share of the context the listing may use when its size is known: 2%.
pub const CONTEXT_SHARE_DIVISOR: usize = 50;

const OPEN: &str = "<available_skills>\n";
const CLOSE: &str = "</available_skills>";

/// The listing budget for a context of `context_chars` characters, or the
/// default when unknown.
pub fn budget_for(context_chars: Option<usize>) -> usize {
    context_chars.map_or(DEFAULT_BUDGET_CHARS, |c| c / CONTEXT_SHARE_DIVISOR)
}

/// The rendered block, and which skills it holds and left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub xml: String,
    /// Names kept, sorted.
    pub included: Vec<String>,
    /// Names left out for lack of room, in precedence order.
    pub omitted: Vec<String>,
    pub budget: usize,
}

impl Listing {
    /// Characters used (not bytes).
    pub fn chars(&self) -> usize {
        self.xml.chars().count()
    }
}

/// One `<skill>` entry, with its name and description escaped.
pub fn entry(name: &str, description: &str) -> String {
    format!(
        "<skill><name>{}</name><description>{}</description></skill>\n",
        escape(name),
        escape(description.trim())
    )
}

/// Builds the block from `skills` (precedence order) within `budget`
/// characters, wrapper included.
pub fn render<'a>(skills: impl IntoIterator<Item = &'a CatalogSkill>, budget: usize) -> Listing {
    let mut used = OPEN.chars().count() + CLOSE.chars().count();
    let mut kept: Vec<(String, String)> = Vec::new();
    let mut omitted = Vec::new();
    for skill in skills {
        if kept.iter().any(|(n, _)| *n == skill.name) {
            continue;
        }
        let text = entry(&skill.name, &skill.description);
        let len = text.chars().count();
        if used + len <= budget {
            used += len;
            kept.push((skill.name.clone(), text));
        } else {
            omitted.push(skill.name.clone());
        }
    }
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    let entries: String = kept.iter().map(|(_, text)| text.as_str()).collect();
    Listing {
        xml: format!("{OPEN}{entries}{CLOSE}"),
        included: kept.into_iter().map(|(n, _)| n).collect(),
        omitted,
        budget,
    }
}

/// Escapes `&`, `<` and `>` so a description cannot close the block or
/// forge an entry.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::roots::{Agent, Scope};
    use crate::catalog::Provenance;

    fn skill(name: &str, description: &str) -> CatalogSkill {
        CatalogSkill {
            name: name.into(),
            description: description.into(),
            scope: Scope::Repo,
            agent: Agent::Agents,
            path: format!("/s/{name}").into(),
            real_path: format!("/s/{name}").into(),
            shadowed_by: None,
            provenance: Provenance::Unmanaged,
            tree: None,
            signer: None,
            skill: None,
            openai: None,
            withheld: None,
        }
    }

    #[test]
    fn budget_is_two_percent_or_the_default() {
        assert_eq!(budget_for(None), 16_000);
        assert_eq!(budget_for(Some(200_000)), 4_000);
    }

    #[test]
    fn everything_fits_and_is_sorted() {
        let s = [skill("zeta", "z"), skill("alpha", "a & <b>")];
        let l = render(&s, 10_000);
        assert_eq!(
            l.xml,
            "<available_skills>\n\
             <skill><name>alpha</name><description>a &amp; &lt;b&gt;</description></skill>\n\
             <skill><name>zeta</name><description>z</description></skill>\n\
             </available_skills>"
        );
        assert_eq!(l.included, ["alpha", "zeta"]);
        assert!(l.omitted.is_empty());
        assert!(l.chars() <= 10_000);
    }

    #[test]
    fn skills_that_do_not_fit_are_left_out_in_precedence_order() {
        let long = "x".repeat(200);
        let s = [
            skill("first", "short"),
            skill("big", &long),
            skill("last", "short"),
        ];
        let small =
            OPEN.len() + CLOSE.len() + entry("first", "short").len() + entry("last", "short").len();
        let l = render(&s, small);
        assert_eq!(l.included, ["first", "last"]);
        assert_eq!(l.omitted, ["big"]);
        assert_eq!(l.chars(), small);
        let l = render(&s, small - 1);
        assert_eq!(l.included, ["first"]);
        assert_eq!(l.omitted, ["big", "last"]);
    }

    #[test]
    fn budget_counts_characters_not_bytes() {
        let s = [skill("uni", "ééééé")];
        let exact = OPEN.len() + CLOSE.len() + entry("uni", "ééééé").chars().count();
        assert_eq!(render(&s, exact).included, ["uni"]);
    }
}
