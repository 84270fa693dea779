//! Unpack + hash throughput of the store, next to `sha256sum` over the same
//! bytes, with peak memory.
//!
//! ```text
//! cargo run --release --example bench_unpack
//! ```
//!
//! Cases: one 50 MiB skill (as tar.gz and as zip; limits raised for it) and
//! 1,000 small skills (tar.gz), imported one after another and then with one
//! thread per core. Each case runs in a child process of its own,
//! so its peak resident memory (VmHWM) is its own. Throughput counts the
//! skill's file bytes (what `sha256sum` reads too); the import does all of
//! an install's work: decompress, check, write, hash, make read-only, rename
//! into the store. Targets (issue 4): at least half of `sha256sum`'s
//! throughput, and under 40 MB peak memory for the 50 MiB skill.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use skillpm::store::Store;
use skillpm::unpack::{ArtifactKind, Limits};

const MIB: usize = 1024 * 1024;
const BIG_FILES: usize = 25;
const BIG_BYTES: usize = 50 * MIB;
const SMALL_SKILLS: usize = 1000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "--child" {
        child(&args[2], Path::new(&args[3]));
        return;
    }
    // BENCH_UNPACK_DIR keeps the inputs for profiling one case by hand:
    // `bench_unpack --child small-tar.gz $BENCH_UNPACK_DIR`.
    let temp = tempfile::tempdir().expect("temp dir");
    let kept = std::env::var_os("BENCH_UNPACK_DIR").map(PathBuf::from);
    let work = kept.as_deref().unwrap_or(temp.path());
    eprintln!("preparing inputs in {} …", work.display());
    let big_src = work.join("big-src");
    write_big_skill(&big_src);
    pack_targz(&big_src, &work.join("big.tar.gz"));
    pack_zip(&big_src, &work.join("big.zip"));
    let small_root = work.join("small-src");
    for i in 0..SMALL_SKILLS {
        let src = small_root.join(format!("skill-{i:04}"));
        write_small_skill(&src, i);
        pack_targz(&src, &work.join(format!("small-{i:04}.tar.gz")));
    }

    println!(
        "{:<28} {:>10} {:>9} {:>11} {:>12} {:>12} {:>8} {:>12}",
        "case", "bytes", "time", "MB/s", "sha256sum", "ratio", "peak RSS", "plain copy"
    );
    for case in [
        "big-tar.gz",
        "big-zip",
        "small-tar.gz",
        "small-tar.gz-parallel",
    ] {
        let (files, bytes) = if case.starts_with("big") {
            (files_under(&big_src), BIG_BYTES as u64)
        } else {
            let files = files_under(&small_root);
            let bytes = files
                .iter()
                .map(|f| fs::metadata(f).map(|m| m.len()).unwrap_or(0))
                .sum();
            (files, bytes)
        };
        // Warm the page cache for both sides, then measure.
        let _ = sha256sum(&files);
        let sha = sha256sum(&files);
        let src_root = if case.starts_with("big") {
            &big_src
        } else {
            &small_root
        };
        let floor = copy_files(src_root, &files, &work.join(format!("floor-{case}")));
        let out = Command::new(std::env::current_exe().expect("own path"))
            .args(["--child", case])
            .arg(work)
            .output()
            .expect("child runs");
        if !out.status.success() {
            eprintln!("{case} failed: {}", String::from_utf8_lossy(&out.stderr));
            std::process::exit(1);
        }
        let line = String::from_utf8_lossy(&out.stdout);
        let mut fields = line.split_whitespace();
        let secs: f64 = fields
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or(f64::NAN);
        let peak_kib: u64 = fields.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let ours = bytes as f64 / secs / 1e6;
        let theirs = bytes as f64 / sha.as_secs_f64() / 1e6;
        let floor_mbs = bytes as f64 / floor.as_secs_f64() / 1e6;
        println!(
            "{:<28} {:>10} {:>8.3}s {:>11.1} {:>10.1}/s {:>11.2}x {:>6.1}MB {:>10.1}/s",
            match case {
                "big-tar.gz" => "50 MiB skill, tar.gz",
                "big-zip" => "50 MiB skill, zip",
                "small-tar.gz" => "1,000 small skills, tar.gz",
                _ => "same, one thread per core",
            },
            bytes,
            secs,
            ours,
            theirs,
            ours / theirs,
            peak_kib as f64 / 1024.0,
            floor_mbs,
        );
    }
    println!(
        "(MB/s: file bytes stored per second; ratio: ours / sha256sum's; peak RSS: the importing \
         process's VmHWM; plain copy: the same files written with no archive, checks or hashing)"
    );
}

/// Runs one case and prints `<seconds> <VmHWM KiB>`.
fn child(case: &str, work: &Path) {
    let cache = work.join(format!("cache-{case}"));
    let store = Store::open_at(&cache).expect("open store");
    let started = Instant::now();
    match case {
        "big-tar.gz" | "big-zip" => {
            let limits = Limits {
                max_file_size: 64 * MIB as u64,
                max_skill_size: 128 * MIB as u64,
                ..Limits::default()
            };
            let (kind, file) = if case == "big-zip" {
                (ArtifactKind::Zip, "big.zip")
            } else {
                (ArtifactKind::TarGz, "big.tar.gz")
            };
            store
                .import_artifact(kind, &work.join(file), file, "big-skill", &limits)
                .expect("import");
        }
        _ => {
            // One thread per core, as an install of many skills would run.
            let threads = if case.ends_with("parallel") {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            } else {
                1
            };
            std::thread::scope(|scope| {
                for t in 0..threads {
                    let store = &store;
                    scope.spawn(move || {
                        for i in (t..SMALL_SKILLS).step_by(threads) {
                            let file = work.join(format!("small-{i:04}.tar.gz"));
                            store
                                .import_artifact(
                                    ArtifactKind::TarGz,
                                    &file,
                                    "small",
                                    &format!("skill-{i:04}"),
                                    &Limits::default(),
                                )
                                .expect("import");
                        }
                    });
                }
            });
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!("{secs} {}", vm_hwm_kib());
}

fn vm_hwm_kib() -> u64 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn sha256sum(files: &[PathBuf]) -> Duration {
    let started = Instant::now();
    for chunk in files.chunks(2000) {
        let status = Command::new("sha256sum")
            .args(chunk)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("sha256sum runs");
        assert!(status.success());
    }
    started.elapsed()
}

/// Writes the same files into `dest` with nothing else done: how fast this
/// file system creates them (small skills are bound by it, not by hashing).
fn copy_files(root: &Path, files: &[PathBuf], dest: &Path) -> Duration {
    let started = Instant::now();
    for file in files {
        let target = dest.join(file.strip_prefix(root).expect("under root"));
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).expect("mkdir");
        }
        fs::write(&target, fs::read(file).expect("read")).expect("write");
    }
    started.elapsed()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).expect("list").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// 50 MiB in 25 files: half text-like (compresses ~4:1), half random bytes
/// (images, PDFs, models: incompressible), as a large real skill would mix.
fn write_big_skill(dir: &Path) {
    fs::create_dir_all(dir.join("assets")).expect("mkdir");
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: big-skill\ndescription: A large skill for benchmarking.\n---\n# Big\n",
    )
    .expect("write");
    let mut rng = fastrand::Rng::with_seed(42);
    let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
    ];
    let each = BIG_BYTES / BIG_FILES;
    let md_len = fs::metadata(dir.join("SKILL.md"))
        .map(|m| m.len() as usize)
        .unwrap_or(0);
    for i in 0..BIG_FILES {
        let mut len = each;
        if i == 0 {
            len -= md_len; // so the skill is exactly 50 MiB
        }
        let data: Vec<u8> = if i % 2 == 0 {
            let mut text = Vec::with_capacity(len + 16);
            while text.len() < len {
                text.extend_from_slice(words[rng.usize(..words.len())].as_bytes());
                text.push(if rng.u8(..16) == 0 { b'\n' } else { b' ' });
                if rng.u8(..4) == 0 {
                    text.extend_from_slice(rng.u32(..).to_string().as_bytes());
                }
            }
            text.truncate(len);
            text
        } else {
            let mut bytes = vec![0u8; len];
            rng.fill(&mut bytes);
            bytes
        };
        fs::write(dir.join(format!("assets/part-{i:02}.dat")), data).expect("write");
    }
}

fn write_small_skill(dir: &Path, i: usize) {
    fs::create_dir_all(dir.join("scripts")).expect("mkdir");
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: skill-{i:04}\ndescription: Small skill number {i}.\n---\n# Skill {i}\n\nUse it well.\n"),
    )
    .expect("write");
    fs::write(dir.join("scripts/run.sh"), format!("#!/bin/sh\necho {i}\n")).expect("write");
    let doc: String = (0..200)
        .map(|n| format!("line {n} of skill {i}\n"))
        .collect();
    fs::write(dir.join("REFERENCE.md"), doc).expect("write");
}

fn pack_targz(src: &Path, out: &Path) {
    let gz = flate2::write::GzEncoder::new(
        fs::File::create(out).expect("create"),
        flate2::Compression::default(),
    );
    let mut tar = tar::Builder::new(gz);
    for file in files_under(src) {
        let rel = file.strip_prefix(src).expect("under src");
        tar.append_path_with_name(&file, rel).expect("append");
    }
    tar.into_inner().expect("tar").finish().expect("gzip");
}

fn pack_zip(src: &Path, out: &Path) {
    let mut zip = zip::ZipWriter::new(fs::File::create(out).expect("create"));
    for file in files_under(src) {
        let rel = file
            .strip_prefix(src)
            .expect("under src")
            .to_string_lossy()
            .into_owned();
        zip.start_file(rel.as_str(), zip::write::SimpleFileOptions::default())
            .expect("start");
        zip.write_all(&fs::read(&file).expect("read"))
            .expect("write");
    }
    zip.finish().expect("finish");
}
