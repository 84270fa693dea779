//! Adding the levels up (docs/policy.md#levels): each file is read below
//! the ones before it, and may only tighten them. Loosening is an error
//! naming both places, never a silent ignore.

use std::path::{Path, PathBuf};

use toml::Spanned;

use super::file::{Place, Raw, line_of};
use super::location::{matches, pattern};
use super::{Effective, Pattern, PolicyError, PolicyLevel, PolicyRule, Requirement, SigstoreRule};

struct Reader<'a> {
    level: PolicyLevel,
    path: &'a Path,
    text: &'a str,
    base: Option<&'a Path>,
}

impl Reader<'_> {
    fn place<T>(&self, s: &Spanned<T>) -> Place {
        Place {
            file: self.path.to_owned(),
            line: Some(line_of(self.text, s.span().start)),
        }
    }

    fn rule<T, U>(&self, s: &Spanned<T>, value: U) -> PolicyRule<U> {
        PolicyRule {
            value,
            at: self.place(s),
            level: self.level,
        }
    }

    fn invalid<T>(&self, s: &Spanned<T>, message: String) -> PolicyError {
        PolicyError::Invalid {
            path: self.path.to_owned(),
            line: line_of(self.text, s.span().start),
            message,
        }
    }

    fn pattern(&self, s: &Spanned<String>) -> Result<PolicyRule<Pattern>, PolicyError> {
        self.pattern_at(s.get_ref(), s)
    }

    /// The pattern `text`, written at `s`.
    fn pattern_at<T>(
        &self,
        text: &str,
        s: &Spanned<T>,
    ) -> Result<PolicyRule<Pattern>, PolicyError> {
        let normal = pattern(text, self.base)
            .map_err(|why| self.invalid(s, format!("source pattern {text:?} {why}")))?;
        Ok(self.rule(
            s,
            Pattern {
                written: text.to_owned(),
                normal,
            },
        ))
    }
}

/// The files read (level, path, text, parsed), highest first, as one policy.
pub(super) fn merge(
    read: Vec<(PolicyLevel, PathBuf, String, Raw)>,
    project_root: &Path,
) -> Result<Effective, PolicyError> {
    let mut out = Effective::default();
    for (level, path, text, raw) in &read {
        let r = Reader {
            level: *level,
            path,
            text,
            base: (*level == PolicyLevel::Project).then_some(project_root),
        };
        add_file(&mut out, &r, raw)?;
        out.files.push((*level, path.clone()));
    }
    Ok(out)
}

fn loosens(what: String, child: Place, parent: &Place) -> PolicyError {
    PolicyError::Loosens {
        what,
        child,
        parent: parent.clone(),
    }
}

fn add_file(out: &mut Effective, r: &Reader<'_>, raw: &Raw) -> Result<(), PolicyError> {
    let mut allow = Vec::new();
    for s in &raw.sources.allow {
        let p = r.pattern(s)?;
        if let Some(d) = out
            .deny
            .iter()
            .find(|d| matches(&d.value.normal, &p.value.normal))
        {
            return Err(loosens(
                format!(
                    "`allow` {:?} allows what `deny` {:?} denies at",
                    p.value.written, d.value.written
                ),
                p.at,
                &d.at,
            ));
        }
        if let Some(list) = out.allow.iter().find(|list| {
            !list
                .iter()
                .any(|a| matches(&a.value.normal, &p.value.normal))
        }) {
            let written: Vec<&str> = list.iter().map(|a| a.value.written.as_str()).collect();
            return Err(loosens(
                format!(
                    "`allow` {:?} allows more than `allow` [{}] at",
                    p.value.written,
                    written.join(", ")
                ),
                p.at,
                &list[0].at,
            ));
        }
        allow.push(p);
    }
    if !allow.is_empty() {
        out.allow.push(allow);
    }
    for s in &raw.sources.deny {
        out.deny.push(r.pattern(s)?);
    }
    for req in &raw.require {
        out.require.push(requirement(r, req)?);
    }
    add_audit(out, r, raw)?;
    add_install(out, r, raw)
}

fn requirement(r: &Reader<'_>, req: &super::file::RawRequire) -> Result<Requirement, PolicyError> {
    let patterns: Vec<String> = match req.sources.get_ref() {
        super::file::OneOrMany::One(s) => vec![s.clone()],
        super::file::OneOrMany::Many(v) => v.clone(),
    };
    let sources = (patterns.iter())
        .map(|p| r.pattern_at(p, &req.sources))
        .collect::<Result<Vec<_>, _>>()?;
    if sources.is_empty() {
        return Err(r.invalid(&req.sources, "a [[require]] names no `sources`".into()));
    }
    if req.minisign.is_none() && req.cosign.is_none() && req.sigstore.is_none() {
        return Err(r.invalid(
            &req.sources,
            "a [[require]] asks for no proof: give `minisign`, `cosign` or `sigstore`".into(),
        ));
    }
    let keys = |s: &Option<Spanned<Vec<String>>>,
                what: &str|
     -> Result<Option<PolicyRule<Vec<String>>>, PolicyError> {
        let Some(s) = s else { return Ok(None) };
        if s.get_ref().is_empty() {
            return Err(r.invalid(s, format!("`{what}` lists no key")));
        }
        let keys = s.get_ref().iter().map(|k| k.trim().to_owned()).collect();
        Ok(Some(r.rule(s, keys)))
    };
    if let Some(s) = &req.minisign {
        for k in s.get_ref() {
            crate::trust::PinnedKey::parse(k)
                .map_err(|e| r.invalid(s, format!("`minisign` key {k:?}: {e}")))?;
        }
    }
    Ok(Requirement {
        sources,
        minisign: keys(&req.minisign, "minisign")?,
        cosign: keys(&req.cosign, "cosign")?,
        sigstore: req.sigstore.as_ref().map(|s| {
            r.rule(
                s,
                SigstoreRule {
                    identity: s.get_ref().identity.clone(),
                    issuer: s.get_ref().issuer.clone(),
                },
            )
        }),
    })
}

fn add_audit(out: &mut Effective, r: &Reader<'_>, raw: &Raw) -> Result<(), PolicyError> {
    if let Some(s) = &raw.audit.fail_on {
        let rule = r.rule(s, *s.get_ref());
        if let Some(prev) = &out.fail_on
            && rule.value > prev.value
        {
            return Err(loosens(
                format!(
                    "`fail-on = \"{}\"` lets through findings below it that `fail-on = \"{}\"` stops at",
                    rule.value, prev.value
                ),
                rule.at,
                &prev.at,
            ));
        }
        if out
            .fail_on
            .as_ref()
            .is_none_or(|prev| rule.value < prev.value)
        {
            out.fail_on = Some(rule);
        }
    }
    for s in &raw.audit.never_accept {
        if out.never_accepts(*s.get_ref()).is_none() {
            out.never_accept.push(r.rule(s, *s.get_ref()));
        }
    }
    Ok(())
}

fn add_install(out: &mut Effective, r: &Reader<'_>, raw: &Raw) -> Result<(), PolicyError> {
    if let Some(s) = &raw.install.link_modes {
        let rule = r.rule(s, s.get_ref().clone());
        if let Some(prev) = &out.link_modes
            && let Some(wider) = rule.value.iter().find(|m| !prev.value.contains(m))
        {
            let listed: Vec<&str> = prev.value.iter().map(|m| m.as_str()).collect();
            return Err(loosens(
                format!(
                    "`link-modes` adds \"{}\" to [{}] of",
                    wider.as_str(),
                    listed.join(", ")
                ),
                rule.at,
                &prev.at,
            ));
        }
        out.link_modes = Some(rule);
    }
    if let Some(s) = &raw.install.agents {
        let mut ids = Vec::new();
        for a in s.get_ref() {
            let agent = crate::agents::Agent::parse(a.get_ref()).ok_or_else(|| {
                r.invalid(
                    a,
                    format!(
                        "unknown agent {:?}; `skillpm agents` lists the ids",
                        a.get_ref()
                    ),
                )
            })?;
            ids.push(agent.as_str().to_owned());
        }
        let rule = r.rule(s, ids);
        if let Some(prev) = &out.agents
            && let Some(wider) = rule.value.iter().find(|a| !prev.value.contains(a))
        {
            return Err(loosens(
                format!(
                    "`agents` adds \"{wider}\" to [{}] of",
                    prev.value.join(", ")
                ),
                rule.at,
                &prev.at,
            ));
        }
        out.agents = Some(rule);
    }
    Ok(())
}
