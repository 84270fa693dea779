//! Download throughput of skillpm's fetcher against plain sequential GETs.
//!
//! Serves N random artifacts from the loopback test server, then times, each
//! in a fresh child process (so its peak memory, VmHWM, is its own):
//!   * `skillpm`: `Fetcher::download_all` into an empty cache (hash while
//!     streaming, fsync, verify, rename), default parallelism;
//!   * `sequential`: one reqwest client GETting the same URLs one after
//!     another into memory, nothing written;
//!   * `sequential to files`: the same, each body written to a file (what a
//!     `curl -o` loop does), without hashing or fsync.
//!
//! `cargo run --release --example bench_fetch [COUNT SIZE_KB [ROUNDS [LATENCY_MS]]]`
//! Default: 200 artifacts of 50 KB straight from loopback, the same with 5 ms
//! of server latency per request (a nearby CDN), then 3 of 60 MB for the
//! memory bound.
//! Files go to the system temp folder; set `TMPDIR` to measure another disk.

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skillpm::digest::{Digest, HashingWriter};
use skillpm::net::fetch::{CacheDirs, DownloadSpec, FetchConfig, Fetcher};
use support::server::{Fault, TestServer};
use url::Url;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("child-skillpm") => child_skillpm(Path::new(&args[2]), Path::new(&args[3])),
        Some("child-sequential") => child_sequential(Path::new(&args[2]), None),
        Some("child-sequential-files") => {
            child_sequential(Path::new(&args[2]), Some(Path::new(&args[3])))
        }
        _ => {
            let custom = args.get(1).zip(args.get(2)).map(|(n, kb)| {
                (
                    n.parse::<usize>().expect("COUNT"),
                    kb.parse::<usize>().expect("SIZE_KB") * 1024,
                )
            });
            let rounds = args.get(3).map(|r| r.parse().expect("ROUNDS")).unwrap_or(5);
            let latency = args
                .get(4)
                .map(|ms| Duration::from_millis(ms.parse().expect("LATENCY_MS")));
            match custom {
                Some((count, size)) => scenario(count, size, rounds, latency.unwrap_or_default()),
                None => {
                    scenario(200, 50 * 1024, rounds, Duration::ZERO);
                    scenario(200, 50 * 1024, rounds, Duration::from_millis(5));
                    scenario(3, 60 * 1024 * 1024, 1, Duration::ZERO);
                }
            }
        }
    }
}

/// One measured child run.
struct Run {
    seconds: f64,
    peak_kb: u64,
}

fn scenario(count: usize, size: usize, rounds: usize, latency: Duration) {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    let mut specs = String::new();
    let server = TestServer::serve(&site);
    let mut rng = fastrand::Rng::with_seed(7);
    let mut chunk = vec![0u8; 64 * 1024];
    for i in 0..count {
        let name = format!("artifact-{i:04}.tar.gz");
        let mut out = HashingWriter::new(std::fs::File::create(site.join(&name)).unwrap());
        let mut left = size;
        while left > 0 {
            let n = left.min(chunk.len());
            rng.fill(&mut chunk[..n]);
            out.write_all(&chunk[..n]).unwrap();
            left -= n;
        }
        let (digest, _, _) = out.finish();
        if !latency.is_zero() {
            server.fault_always(&format!("/{name}"), Fault::Delay(latency));
        }
        specs.push_str(&format!("{} {digest}\n", server.url(&format!("/{name}"))));
    }
    let spec_file = dir.path().join("specs.txt");
    std::fs::write(&spec_file, specs).unwrap();
    let total_mb = (count * size) as f64 / 1e6;
    println!(
        "\n{count} artifacts x {} KB = {total_mb:.1} MB from {}, {} ms server latency, best of {rounds}",
        size / 1024,
        server.base(),
        latency.as_millis(),
    );

    let mut ours = Vec::new();
    let mut plain = Vec::new();
    let mut to_files = Vec::new();
    for round in 0..rounds {
        let cache = dir.path().join(format!("cache-{round}"));
        let out = dir.path().join(format!("out-{round}"));
        std::fs::create_dir_all(&out).unwrap();
        ours.push(child("child-skillpm", &[&spec_file, &cache]));
        plain.push(child("child-sequential", &[&spec_file]));
        to_files.push(child("child-sequential-files", &[&spec_file, &out]));
        std::fs::remove_dir_all(&cache).ok();
        std::fs::remove_dir_all(&out).ok();
    }
    let best = |runs: &[Run]| runs.iter().map(|r| r.seconds).fold(f64::INFINITY, f64::min);
    let peak = |runs: &[Run]| runs.iter().map(|r| r.peak_kb).max().unwrap_or(0);
    let (t_ours, t_plain, t_files) = (best(&ours), best(&plain), best(&to_files));
    println!(
        "  skillpm download_all : {:>8.1} ms  {:>7.1} MB/s  peak {:>5.1} MB  (hash + fsync + verify + rename, {} jobs)",
        t_ours * 1e3,
        total_mb / t_ours,
        peak(&ours) as f64 / 1024.0,
        FetchConfig::from_env().map(|c| c.net.jobs).unwrap_or(8)
    );
    println!(
        "  sequential GETs      : {:>8.1} ms  {:>7.1} MB/s  peak {:>5.1} MB  (into memory, nothing written)",
        t_plain * 1e3,
        total_mb / t_plain,
        peak(&plain) as f64 / 1024.0
    );
    println!(
        "  sequential GETs->file: {:>8.1} ms  {:>7.1} MB/s  peak {:>5.1} MB  (a `curl -o` loop: written, no hash, no fsync)",
        t_files * 1e3,
        total_mb / t_files,
        peak(&to_files) as f64 / 1024.0
    );
    println!(
        "  speed-up             : {:.2}x over GETs into memory, {:.2}x over GETs to files",
        t_plain / t_ours,
        t_files / t_ours
    );
}

/// Runs this example again as a child and parses its `seconds peak_kb` line.
fn child(mode: &str, args: &[&Path]) -> Run {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .arg(mode)
        .args(args)
        .output()
        .expect("child");
    assert!(
        out.status.success(),
        "{mode} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.split_whitespace();
    Run {
        seconds: parts.next().and_then(|s| s.parse().ok()).expect("seconds"),
        peak_kb: parts.next().and_then(|s| s.parse().ok()).expect("peak"),
    }
}

fn read_specs(path: &Path) -> Vec<(Url, Digest)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let (url, digest) = line.split_once(' ').unwrap();
            (Url::parse(url).unwrap(), digest.parse().unwrap())
        })
        .collect()
}

fn child_skillpm(spec_file: &Path, cache: &Path) {
    let specs: Vec<DownloadSpec> = read_specs(spec_file)
        .into_iter()
        .map(|(url, digest)| DownloadSpec::new(url, Some(digest)))
        .collect();
    let fetcher = Fetcher::new(
        FetchConfig::from_env().unwrap(),
        CacheDirs::new(PathBuf::from(cache)),
        false,
    )
    .unwrap();
    let bar = indicatif::ProgressBar::hidden();
    let started = Instant::now();
    let results = fetcher.download_all(specs, &bar);
    let elapsed = started.elapsed();
    for r in &results {
        assert!(r.as_ref().is_ok_and(|d| !d.reused), "{r:?}");
    }
    report(elapsed);
}

/// One client, one GET after another; the bytes are dropped, or written to
/// `out/<n>` when `out` is given. The client is built inside the timing, as
/// the fetcher's is.
fn child_sequential(spec_file: &Path, out: Option<&Path>) {
    let specs = read_specs(spec_file);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let started = Instant::now();
    runtime.block_on(async {
        let client = reqwest::Client::new();
        for (i, (url, _)) in specs.iter().enumerate() {
            let mut response = client.get(url.clone()).send().await.unwrap();
            let mut file = out.map(|dir| std::fs::File::create(dir.join(i.to_string())).unwrap());
            let mut n = 0;
            while let Some(chunk) = response.chunk().await.unwrap() {
                n += chunk.len();
                if let Some(f) = file.as_mut() {
                    f.write_all(&chunk).unwrap();
                }
            }
            assert!(n > 0);
        }
    });
    report(started.elapsed());
}

fn report(elapsed: Duration) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    println!("{} {peak_kb}", elapsed.as_secs_f64());
}
