//! Claude Code's own skill listing, as a real Claude Code sends it to its
//! model (docs/design.md#proof-with-real-agents): one line per skill,
//! `- name: description` (and ` - when_to_use`), each description cut at
//! 1,536 characters, in a budget of 1% of the model's usable context at 4
//! characters a token unless `SLASH_COMMAND_TOOL_CHAR_BUDGET` sets it: about
//! 7,000 characters of such lines for a 200k-token model. Claude Code's own
//! skills take about 5,200 of them; past the rest, it keeps every name but
//! drops descriptions (its own or the user's), and a model rarely picks a
//! skill it sees by name alone. Measured with Claude Code 2.1.332 by
//! `scripts/interop-agents.sh`, which holds these figures to the pinned
//! release.

use std::collections::HashSet;

use super::{Observation, Urgency, finding};
use crate::agents::Agent;
use crate::catalog::CatalogSkill;

/// The variable Claude Code reads its listing budget from.
pub const BUDGET_VAR: &str = "SLASH_COMMAND_TOOL_CHAR_BUDGET";

/// The budget of a 200k-token model (Sonnet, Haiku), in characters of
/// listing lines as [`used`] counts them (measured: 6,964 fit, 7,004 did
/// not).
pub const SMALL_BUDGET: usize = 7_000;

/// The budget of Claude Code's default model (Opus, whose context is
/// larger), measured the same way (27,204 fit, 30,204 did not; about
/// 29,000 were kept).
pub const DEFAULT_BUDGET: usize = 29_000;

/// What Claude Code's own skills (`dataviz`, `simplify`, `code-review` …)
/// take of the budget before any of the user's.
pub const OWN_SKILLS: usize = 5_200;

/// The longest description Claude Code lists; the rest is cut.
const MAX_DESCRIPTION: usize = 1_536;

/// The finding kind.
pub const KIND: &str = "claude-listing";

/// The characters Claude Code's listing takes for `skills` (those of its
/// own folders, each name once, in the order found: the first one wins,
/// as Claude Code keeps the most specific scope).
pub fn used(skills: &[&CatalogSkill]) -> usize {
    skills.iter().map(|s| line_chars(s)).sum()
}

/// `- name: description - when_to_use\n`, the description part cut as
/// Claude Code cuts it.
fn line_chars(skill: &CatalogSkill) -> usize {
    let when = (skill.skill.as_ref())
        .and_then(|s| s.field("when_to_use"))
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|w| !w.is_empty());
    let mut description = skill.description.trim().chars().count();
    if let Some(when) = when {
        description += " - ".len() + when.chars().count();
    }
    "- ".len() + skill.name.chars().count() + ": ".len() + description.min(MAX_DESCRIPTION) + 1
}

/// The skills Claude Code lists from what discovery found: valid ones in
/// its own folders that the model may pick, each name once.
pub fn listed(skills: &[CatalogSkill]) -> Vec<&CatalogSkill> {
    let mut seen = HashSet::new();
    (skills.iter())
        .filter(|s| s.agent == Agent::Claude && s.is_valid() && s.model_invocable())
        .filter(|s| seen.insert(s.name.as_str()))
        .collect()
}

/// What `doctor` says of Claude Code's listing: a warning when the skills
/// in its folders take more than its own skills leave of `budget` (the
/// variable's, or else of its default model's); a note when they take more
/// than a 200k-token model leaves (Sonnet and Haiku then list some by name
/// only).
pub fn check(skills: &[CatalogSkill], budget: Option<usize>, findings: &mut Vec<Observation>) {
    let listed = listed(skills);
    let used = used(&listed);
    let over = |budget: usize, level: Urgency, whose: String| {
        let room = budget.saturating_sub(OWN_SKILLS);
        (used > room).then(|| {
            finding(
                level,
                KIND,
                None,
                None,
                format!(
                    "the {} skills in Claude Code's folders take {used} characters of its skill listing, over the {room} its own skills leave {whose}: Claude Code then lists some skills by name only, and a model rarely picks a skill it sees by name alone; shorten their descriptions or disable skills you do not need",
                    listed.len()
                ),
            )
        })
    };
    let said = match budget {
        Some(set) => over(
            set,
            Urgency::Warning,
            format!("of the budget {BUDGET_VAR}={set} sets"),
        ),
        None => over(
            DEFAULT_BUDGET,
            Urgency::Warning,
            format!("on its default model ({BUDGET_VAR} sets the budget)"),
        )
        .or_else(|| {
            over(
                SMALL_BUDGET,
                Urgency::Info,
                format!(
                    "on a 200k-token model such as Sonnet or Haiku ({BUDGET_VAR} sets the budget)"
                ),
            )
        }),
    };
    findings.extend(said);
}
