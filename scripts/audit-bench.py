#!/usr/bin/env python3
"""Detection benchmark of `skillpm audit` (docs/audit.md, "Detection benchmark").

Runs `skillpm --json audit` (no `--fail-on`: the default, `high`) over three
corpora and reports, for each:

- recall: malicious skills refused (exit 5; a finding at or above the
  default fail-on) / malicious skills;
- false highs: honest skills with any `high` or `critical` finding;
- the misses and false alarms, with the rules that fired.

Corpora:
  (a) audit-corpus/ of this repository: malicious/<family>/<skill>/ and
      honest/<kind>/<skill>/;
  (b) ShenaoW/MalSkills, a local checkout named by $MALSKILLS_DIR (labels in
      data/ground_truth/ground_truth_final.csv); skipped when unset;
  (c) public collections, checkouts named by $COLLECTIONS_DIRS
      (colon-separated); every folder holding SKILL.md counts as honest;
      skipped when unset;
  (g) audit-corpus/blind/: a third set in the same layout, written blind
      (audit-corpus/blind/README.md) and measured once before it was
      committed; rules tuned on it make it a tuning set like the others;
  (h) audit-corpus/blind2/: a fourth, written the same way while (g) was
      tuned on, and measured once before it was committed;
  (i) audit-corpus/blind3/: a fifth, written at the same time with each
      attack modelled on a documented real incident, measured once before
      it was committed;
  (j) audit-corpus/blind4/: a sixth, written by a writer who read only
      docs/audit.md (the sandbox included) and aimed at both readers,
      measured once before it was committed;
  (f) audit-corpus/fresh/{tuning,held-out}/: a second set in the same
      layout, written by someone who had read docs/audit.md only, never
      the rules, split by skill within each family; both halves have since
      been tuned on (audit-corpus/fresh/README.md).

Builds nothing: pass the binary (default target/release/skillpm, or $SKILLPM).
Standard library only. Nothing of (b) or (c) is copied anywhere.

    scripts/audit-bench.py [--binary PATH] [--corpus DIR] [--json] [--only a,g,f,b,c]

`--run` measures `skillpm audit --run` instead (docs/audit.md, "Measured"):
every skill is audited statically and with `--run` (one skill per
invocation, so each run's time is its own), over
  (r) run-corpus/ of this repository (skills that hide their behaviour
      from a reader, and honest look-alikes whose scripts run too),
  (a) audit-corpus/ (the malicious skills with a script that runs, and the
      honest ones), and
  (c) the collections of $COLLECTIONS_DIRS;
and reports per corpus: the malicious skills the static audit misses (not
refused at the default fail-on), how many of those `--run` catches (a
`run-*` finding at high or above), `--run`'s own recall, the honest
skills with any behaviour finding (any `run-*` rule at any severity but
`run-unfinished`), the runs that reached the deadline (listed apart, for
every corpus), and the run's wall time per skill that ran a script
(`run.ms`: median, p95, max, and the slowest). Needs bubblewrap and strace (Linux).

    scripts/audit-bench.py --run [--only r,a,c] [--json] [--vs OTHER_BINARY]

`--vs` runs each skill with the second binary right after the first (both
see the same load) and reports both; every row gives the load average
(1 minute) over its runs.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import OrderedDict

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The families of (a) kept out of tuning (docs/audit.md, "The split"): the
# 16 families sorted by name, every second one from the second on. Rules
# are tuned on the other half and on MalSkills' malicious side only; the
# recall of this half says how the audit does on attacks it was not tuned on.
# Since issue 33's fourth detection pass this half has been tuned on too
# (docs/audit.md, "After tuning on both halves"); the held-out measure is
# now the fresh set in audit-corpus/fresh/.
HELD_OUT = (
    "credential-exfil",
    "disguised-binary",
    "encoded-payload",
    "hide-from-user",
    "permission-bypass",
    "prompt-injection",
    "scanner-blind-spot",
    "unicode-tricks",
)
HIGH = ("high", "critical")
EXIT_OK, EXIT_REFUSED = 0, 5
# Paths per `skillpm audit` invocation (well under any argument limit).
CHUNK = 64


def skill_md_dirs(root):
    """Every folder under `root` holding SKILL.md, sorted ('.git' skipped)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        if "SKILL.md" in filenames:
            out.append(dirpath)
    return out


def outermost(dirs):
    """The folders of `dirs` not inside another of them."""
    keep = []
    for d in sorted(dirs):
        if not any(d.startswith(k + os.sep) for k in keep):
            keep.append(d)
    return keep


class Auditor:
    """Runs the binary from an empty folder (so no skills.toml above it sets
    another fail-on) and returns, per skill folder, its findings or an error."""

    def __init__(self, binary):
        self.binary = binary
        self.cwd = tempfile.mkdtemp(prefix="audit-bench-")

    def _run(self, paths):
        p = subprocess.run(
            [self.binary, "--json", "audit", *paths],
            cwd=self.cwd,
            capture_output=True,
            text=True,
            errors="replace",
        )
        return p.returncode, p.stdout, p.stderr

    def audit(self, paths):
        """{path: {"refused": bool, "findings": [...]} or {"error": str}}."""
        out = {}
        for i in range(0, len(paths), CHUNK):
            chunk = paths[i : i + CHUNK]
            code, stdout, stderr = self._run(chunk)
            if code in (EXIT_OK, EXIT_REFUSED):
                try:
                    report = json.loads(stdout)
                    self._collect(report, out)
                    if all(p in out for p in chunk):
                        continue
                except (ValueError, KeyError):
                    pass
            # One bad folder fails the whole invocation: audit one by one.
            for path in chunk:
                if path in out:
                    continue
                code, stdout, stderr = self._run([path])
                try:
                    if code not in (EXIT_OK, EXIT_REFUSED):
                        raise ValueError
                    self._collect(json.loads(stdout), out)
                    out.setdefault(path, {"error": "not in the report"})
                except (ValueError, KeyError):
                    msg = (stderr.strip() or stdout.strip()).splitlines()
                    out[path] = {"error": f"exit {code}: {msg[-1] if msg else ''}"}
        return out

    @staticmethod
    def _collect(report, out):
        fail_on = report["fail_on"]
        order = ["low", "medium", "high", "critical"]
        for s in report["skills"]:
            findings = s["findings"]
            refused = any(
                order.index(f["severity"]) >= order.index(fail_on) for f in findings
            )
            out[str(s["path"])] = {"refused": refused, "findings": findings}


def rules_of(findings, severities=None):
    seen = OrderedDict()
    for f in findings:
        if severities is None or f["severity"] in severities:
            seen[f"{f['rule']}({f['severity']})"] = None
    return list(seen)


def judge(samples, results, split=True):
    """samples: [(label, name, group, [folders])] -> a corpus summary (with
    recall per group when groups are named, and per half of the split when
    `split`).

    A sample is refused when any of its folders is refused, and has a high
    when any of its folders has a high or critical finding."""
    mal = [s for s in samples if s[0] == "malicious"]
    hon = [s for s in samples if s[0] == "honest"]
    summary = {
        "malicious": len(mal),
        "refused": 0,
        "honest": len(hon),
        "false_highs": 0,
        "errors": [],
        "misses": [],
        "false_alarms": [],
        "families": OrderedDict(),
    }
    for label, name, group, folders in samples:
        rs = [results[f] for f in folders]
        errs = [r["error"] for r in rs if "error" in r]
        ok = [r for r in rs if "error" not in r]
        findings = [f for r in ok for f in r["findings"]]
        if errs:
            summary["errors"].append({"skill": name, "error": errs[0]})
        if label == "malicious":
            fam = {"malicious": 0, "refused": 0}
            if group:
                fam = summary["families"].setdefault(group, fam)
            fam["malicious"] += 1
            if any(r["refused"] for r in ok):
                summary["refused"] += 1
                fam["refused"] += 1
            else:
                summary["misses"].append({"skill": name, "rules": rules_of(findings)})
        else:
            highs = [f for f in findings if f["severity"] in HIGH]
            if highs:
                summary["false_highs"] += 1
                summary["false_alarms"].append(
                    {"skill": name, "rules": rules_of(highs, HIGH)}
                )
    summary["recall"] = summary["refused"] / len(mal) if mal else None
    if not summary["families"]:
        del summary["families"]
    elif split:
        halves = OrderedDict()
        for fam, c in summary["families"].items():
            half = "held-out" if fam in HELD_OUT else "tuning"
            h = halves.setdefault(half, {"malicious": 0, "refused": 0})
            h["malicious"] += c["malicious"]
            h["refused"] += c["refused"]
        for h in halves.values():
            h["recall"] = h["refused"] / h["malicious"]
        summary["halves"] = OrderedDict(sorted(halves.items(), reverse=True))
    return summary


def corpus_own(root):
    samples = []
    for label in ("malicious", "honest"):
        base = os.path.join(root, label)
        if not os.path.isdir(base):
            continue
        for group in sorted(os.listdir(base)):
            gdir = os.path.join(base, group)
            if not os.path.isdir(gdir):
                continue
            for name in sorted(os.listdir(gdir)):
                d = os.path.join(gdir, name)
                if os.path.isdir(d):
                    samples.append((label, f"{group}/{name}", group, [d]))
    return samples


def corpus_malskills(root):
    gt = os.path.join(root, "data", "ground_truth", "ground_truth_final.csv")
    samples, problems = [], []
    with open(gt, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            label = {"malicious": "malicious", "benign": "honest"}.get(
                row["Label"].strip().lower()
            )
            folder = os.path.join(root, row["Ground_truth_path"])
            name = row["Skill_name"]
            if label is None or not os.path.isdir(folder):
                problems.append(f"{name}: label {row['Label']!r}, folder {folder}")
                continue
            dirs = outermost(skill_md_dirs(folder))
            if not dirs:
                problems.append(f"{name}: no SKILL.md in {folder}")
                continue
            samples.append((label, name, "", dirs))
    return samples, problems


def corpus_collection(root):
    samples = []
    for d in skill_md_dirs(root):
        samples.append(("honest", os.path.relpath(d, root), "", [d]))
    return samples


def pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}%"


def markdown(results):
    lines = [
        "| corpus | malicious refused | recall | honest with a high | errors |",
        "|---|---|---|---|---|",
    ]
    for key, r in results.items():
        if "skipped" in r:
            lines.append(f"| {key} | skipped: {r['skipped']} | | | |")
            continue
        mal = f"{r['refused']}/{r['malicious']}" if r["malicious"] else "-"
        lines.append(
            f"| {key} | {mal} | {pct(r['recall'])} | "
            f"{r['false_highs']}/{r['honest']} | {len(r['errors'])} |"
        )
    for key, r in results.items():
        if "skipped" in r:
            continue
        if r.get("halves"):
            lines += ["", f"### {key}: recall per half", ""]
            lines += ["| half | refused | recall |", "|---|---|---|"]
            for half, c in r["halves"].items():
                lines.append(
                    f"| {half} | {c['refused']}/{c['malicious']} | {pct(c['recall'])} |"
                )
        if r.get("families"):
            lines += ["", f"### {key}: recall per family", ""]
            lines += ["| family | half | refused | recall |", "|---|---|---|---|"]
            for fam, c in r["families"].items():
                half = ("held-out" if fam in HELD_OUT else "tuning") if "halves" in r else "-"
                lines.append(
                    f"| {fam} | {half} | {c['refused']}/{c['malicious']} | "
                    f"{pct(c['refused'] / c['malicious'])} |"
                )
        for title, rows in (
            ("misses (malicious, not refused)", r["misses"]),
            ("false alarms (honest, high or critical)", r["false_alarms"]),
        ):
            if rows:
                lines += ["", f"### {key}: {title}", ""]
                for row in rows:
                    rules = ", ".join(row["rules"]) or "no finding"
                    lines.append(f"- `{row['skill']}`: {rules}")
        if r["errors"]:
            lines += ["", f"### {key}: errors", ""]
            lines += [f"- `{e['skill']}`: {e['error']}" for e in r["errors"]]
        if r.get("problems"):
            lines += ["", f"### {key}: not benchmarked", ""]
            lines += [f"- {p}" for p in r["problems"]]
    return "\n".join(lines) + "\n"


def run_one(binary, cwd, path, run):
    """`skillpm --json audit [--run] PATH`: (the skill's report, error)."""
    argv = [binary, "--json", "audit"] + (["--run"] if run else []) + [path]
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace")
    if p.returncode not in (EXIT_OK, EXIT_REFUSED):
        msg = (p.stderr.strip() or p.stdout.strip()).splitlines()
        return None, f"exit {p.returncode}: {msg[-1] if msg else ''}"
    try:
        report = json.loads(p.stdout)
        skills = report["skills"]
    except (ValueError, KeyError):
        return None, "unreadable report"
    if len(skills) != 1:
        return None, f"{len(skills)} skills in {path}"
    return skills[0], None


def at_least_high(findings, run_rules):
    return [
        f
        for f in findings
        if f["severity"] in HIGH and f["rule"].startswith("run-") == run_rules
    ]


def percentile(sorted_values, q):
    if not sorted_values:
        return None
    i = max(0, math.ceil(q * len(sorted_values)) - 1)
    return sorted_values[i]


def bench_run(binaries, samples):
    """samples: [(label, name, group, [folder])] (one folder each) -> one
    summary per binary. With two binaries each skill is run by the first,
    then the second, in turn (paired: both see the same load)."""
    cwd = tempfile.mkdtemp(prefix="audit-bench-run-")
    tallies = [Tally() for _ in binaries]
    for sample in samples:
        for binary, tally in zip(binaries, tallies):
            tally.add(binary, cwd, sample)
    return [t.summary(len(samples)) for t in tallies]


def load_average():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


class Tally:
    """What one binary's runs of a corpus came to."""

    def __init__(self):
        self.mal = {"malicious": 0, "static_misses": 0, "run_catches_static_misses": 0,
                    "run_catches": 0, "misses": [], "families": OrderedDict()}
        self.hon = {"honest": 0, "with_run_finding": 0, "false_findings": []}
        self.times, self.errors, self.scripts, self.unfinished = [], [], 0, []
        self.loads = []

    def add(self, binary, cwd, sample):
        label, name, group, folders = sample
        mal, hon = self.mal, self.hon
        folder = folders[0]
        self.loads.append(load_average())
        static, err = run_one(binary, cwd, folder, False)
        ran, err2 = (None, err) if err else run_one(binary, cwd, folder, True)
        if err or err2:
            self.errors.append({"skill": name, "error": err or err2})
            return
        run = ran.get("run") or {}
        if run.get("scripts"):
            self.times.append((run["ms"], name))
            self.scripts += len(run["scripts"])
        if run.get("unfinished"):
            self.unfinished.append(name)
        run_findings = [f for f in ran["findings"] if f["rule"].startswith("run-")]
        # An unfinished run is reported (and listed) apart: it says what
        # was not observed, not what was.
        behaviour = [f for f in run_findings if f["rule"] != "run-unfinished"]
        if label == "malicious":
            fam = mal["families"].setdefault(
                group, {"malicious": 0, "static_misses": 0, "run_catches": 0,
                        "run_catches_static_misses": 0})
            missed = not at_least_high(static["findings"], False)
            caught = bool(at_least_high(ran["findings"], True))
            for d in (mal, fam):
                d["malicious"] += 1
                d["static_misses"] += missed
                d["run_catches"] += caught
                d["run_catches_static_misses"] += missed and caught
            if not caught:
                mal["misses"].append({
                    "skill": name,
                    "static": "missed" if missed else "refused",
                    "ran": len(run.get("scripts") or []),
                    "rules": rules_of(run_findings),
                })
        else:
            hon["honest"] += 1
            if behaviour:
                hon["with_run_finding"] += 1
                hon["false_findings"].append({"skill": name, "rules": rules_of(behaviour)})

    def summary(self, skills):
        ms = sorted(t for t, _ in self.times)
        loads = [x for x in self.loads if x is not None]
        out = {"skills": skills, "ran_scripts": len(self.times), "scripts": self.scripts,
               "errors": self.errors, "unfinished": self.unfinished,
               "ms": {"median": percentile(ms, 0.5), "p95": percentile(ms, 0.95),
                      "max": ms[-1] if ms else None},
               "load": [min(loads), max(loads)] if loads else None,
               "slowest": [{"skill": n, "ms": t}
                           for t, n in sorted(self.times, reverse=True)[:5]]}
        if self.mal["malicious"]:
            out.update(self.mal)
        if self.hon["honest"]:
            out.update(self.hon)
        return out


def markdown_run(results):
    def sec(ms):
        return "-" if ms is None else f"{ms / 1000:.2f} s"

    lines = [
        "| corpus | malicious | static misses | of those, `--run` catches | `--run` catches | "
        "honest | honest with a `--run` finding | unfinished runs | skills run | median | p95 | max | "
        "load average |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, r in results.items():
        if "skipped" in r:
            lines.append(f"| {key} | skipped: {r['skipped']} |" + " |" * 11)
            continue
        m = r.get("malicious", 0)
        lines.append(
            f"| {key} | {m or '-'} | {r.get('static_misses', '-')} | "
            f"{r.get('run_catches_static_misses', '-')} | {r.get('run_catches', '-')} | "
            f"{r.get('honest', '-')} | {r.get('with_run_finding', '-')} | "
            f"{len(r['unfinished'])} | {r['ran_scripts']} ({r['scripts']} scripts) | {sec(r['ms']['median'])} | "
            f"{sec(r['ms']['p95'])} | {sec(r['ms']['max'])} | "
            f"{'-' if not r.get('load') else '%.1f-%.1f' % tuple(r['load'])} |"
        )
    for key, r in results.items():
        if "skipped" in r:
            continue
        if r.get("families"):
            lines += ["", f"### {key}: per family", "",
                      "| family | skills | static misses | of those, `--run` catches | `--run` catches |",
                      "|---|---|---|---|---|"]
            for fam, c in r["families"].items():
                lines.append(f"| {fam} | {c['malicious']} | {c['static_misses']} | "
                             f"{c['run_catches_static_misses']} | {c['run_catches']} |")
        if r.get("misses"):
            lines += ["", f"### {key}: not caught by `--run`", ""]
            for row in r["misses"]:
                rules = ", ".join(row["rules"]) or "no run finding"
                lines.append(f"- `{row['skill']}` (static: {row['static']}, "
                             f"{row['ran']} scripts run): {rules}")
        if r.get("false_findings"):
            lines += ["", f"### {key}: honest skills with a `--run` finding", ""]
            for row in r["false_findings"]:
                lines.append(f"- `{row['skill']}`: {', '.join(row['rules'])}")
        if r["slowest"]:
            lines += ["", f"### {key}: slowest runs", ""]
            lines += [f"- `{s['skill']}`: {sec(s['ms'])}" for s in r["slowest"]]
        if r["unfinished"]:
            lines += ["", f"### {key}: runs that reached the deadline", ""]
            lines += [f"- `{n}`" for n in r["unfinished"]]
        if r["errors"]:
            lines += ["", f"### {key}: errors", ""]
            lines += [f"- `{e['skill']}`: {e['error']}" for e in r["errors"]]
    return "\n".join(lines) + "\n"


def main_run(args, binaries):
    only = set(args.only.split(",")) if args.only != "a,g,f,b,c" else {"r", "a", "c"}
    results = OrderedDict()
    # With --vs, the second binary's row follows each corpus's, marked "(vs)".
    labels = ["", " (vs)"]

    def put(key, samples):
        for label, summary in zip(labels, bench_run(binaries, samples)):
            results[key + label] = summary

    if "r" in only:
        put("(r) run-corpus", corpus_own(os.path.join(REPO, "run-corpus")))
    if "a" in only:
        put("(a) audit-corpus", corpus_own(os.path.abspath(args.corpus)))
    if "c" in only:
        dirs = [d for d in os.environ.get("COLLECTIONS_DIRS", "").split(":") if d]
        if not dirs:
            results["(c) collections"] = {"skipped": "COLLECTIONS_DIRS is not set"}
        for d in dirs:
            key = f"(c) {os.path.basename(os.path.normpath(d))}"
            if not os.path.isdir(d):
                results[key] = {"skipped": f"{d} is not a folder"}
            else:
                put(key, corpus_collection(os.path.abspath(d)))
    if args.json:
        json.dump(results, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        sys.stdout.write(markdown_run(results))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--binary",
        default=os.environ.get("SKILLPM")
        or os.path.join(REPO, "target", "release", "skillpm"),
        help="the skillpm binary (default: $SKILLPM, else target/release/skillpm)",
    )
    ap.add_argument("--corpus", default=os.path.join(REPO, "audit-corpus"))
    ap.add_argument("--json", action="store_true", help="print JSON, not markdown")
    ap.add_argument(
        "--only",
        default="a,g,h,i,j,f,b,c",
        help="corpora to run, e.g. a,c (r,a,c with --run); g is audit-corpus/blind, "
        "h audit-corpus/blind2, i audit-corpus/blind3, j audit-corpus/blind4, "
        "f is audit-corpus/fresh",
    )
    ap.add_argument("--run", action="store_true", help="measure `audit --run` (see above)")
    ap.add_argument(
        "--vs",
        help="with --run: a second skillpm binary; each skill is run by --binary, then "
        "by this one, in turn, so both see the same load (rows marked (vs))",
    )
    args = ap.parse_args()
    binaries = [os.path.abspath(b) for b in [args.binary] + ([args.vs] if args.vs else [])]
    for binary in binaries:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            print(
                f"audit-bench: no skillpm binary at {binary}; build it "
                "(cargo build --release --locked) or pass --binary / set SKILLPM",
                file=sys.stderr,
            )
            return 2
    if args.vs and not args.run:
        print("audit-bench: --vs pairs runs of `audit --run`; give --run too", file=sys.stderr)
        return 2
    binary = binaries[0]
    if args.run:
        return main_run(args, binaries)
    only = set(args.only.split(","))
    auditor = Auditor(binary)
    results = OrderedDict()

    def run(key, samples, problems=(), split=True):
        folders = sorted({f for s in samples for f in s[3]})
        summary = judge(samples, auditor.audit(folders), split)
        if problems:
            summary["problems"] = list(problems)
        results[key] = summary

    if "a" in only:
        run("(a) audit-corpus", corpus_own(os.path.abspath(args.corpus)))
    for key, folder in (("g", "blind"), ("h", "blind2"), ("i", "blind3"), ("j", "blind4")):
        if key not in only:
            continue
        blind = os.path.join(os.path.abspath(args.corpus), folder)
        if not os.path.isdir(blind):
            results[f"({key}) {folder}"] = {"skipped": f"{blind} is not a folder"}
        else:
            run(f"({key}) {folder}", corpus_own(blind), split=False)
    if "f" in only:
        # audit-corpus/fresh/README.md: split by skill within each family, so
        # each half is reported whole.
        for half in ("tuning", "held-out"):
            key = f"(f) fresh, {half} half"
            fresh = os.path.join(os.path.abspath(args.corpus), "fresh", half)
            if not os.path.isdir(fresh):
                results[key] = {"skipped": f"{fresh} is not a folder"}
            else:
                run(key, corpus_own(fresh), split=False)
    if "b" in only:
        mal = os.environ.get("MALSKILLS_DIR")
        if not mal:
            results["(b) MalSkills"] = {"skipped": "MALSKILLS_DIR is not set"}
        elif not os.path.isdir(mal):
            results["(b) MalSkills"] = {"skipped": f"{mal} is not a folder"}
        else:
            samples, problems = corpus_malskills(os.path.abspath(mal))
            run("(b) MalSkills", samples, problems)
    if "c" in only:
        dirs = [d for d in os.environ.get("COLLECTIONS_DIRS", "").split(":") if d]
        if not dirs:
            results["(c) collections"] = {"skipped": "COLLECTIONS_DIRS is not set"}
        for d in dirs:
            key = f"(c) {os.path.basename(os.path.normpath(d))}"
            if not os.path.isdir(d):
                results[key] = {"skipped": f"{d} is not a folder"}
            else:
                run(key, corpus_collection(os.path.abspath(d)))
    for key, r in results.items():
        if "skipped" in r:
            print(f"audit-bench: {key} skipped: {r['skipped']}", file=sys.stderr)
    if args.json:
        json.dump(results, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        sys.stdout.write(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
