//! Deterministic archives: the same files always give the same bytes, on any
//! machine, at any time, whoever runs the publish.
//!
//! What could vary is pinned: entry order (byte order of paths), timestamps
//! (1980-01-01, the earliest time a zip can hold, so both formats agree),
//! owners (uid/gid 0, no user or group names), modes (0644, or 0755 when the
//! owner-execute bit is set), and the gzip header (mtime 0, no file name, OS
//! byte 255 "unknown"). The compression level is fixed too; the compressor
//! itself (zlib-rs through flate2) is pinned by Cargo.lock.
//!
//! Archives hold regular files only: every unpacker creates the folders, and
//! folder entries would carry modes that no executable bit decides. Tar
//! headers are plain ustar (long paths split into `prefix`/`name`), never GNU
//! long-name records, which some readers (the vercel-labs `skills` CLI among
//! them) do not understand; `names::check_published` keeps every path
//! within what ustar can hold.

use std::io::{Cursor, Write};

use flate2::{Compression, GzBuilder};

use super::files::SkillFile;

/// 1980-01-01T00:00:00Z in Unix seconds.
pub const ARCHIVE_MTIME: u64 = 315_532_800;
/// gzip's "unknown" operating system, so the bytes do not say where they were made.
const GZIP_OS_UNKNOWN: u8 = 255;
const LEVEL: u32 = 9;

fn mode_of(file: &SkillFile) -> u32 {
    if file.executable { 0o755 } else { 0o644 }
}

/// A `.tar.gz` of `files` (already sorted by path), SKILL.md at the root.
pub fn tar_gz(files: &[SkillFile]) -> std::io::Result<Vec<u8>> {
    let gz = GzBuilder::new()
        .mtime(0)
        .operating_system(GZIP_OS_UNKNOWN)
        .write(Vec::new(), Compression::new(LEVEL));
    let mut builder = tar::Builder::new(gz);
    for file in files {
        let mut header = tar::Header::new_ustar();
        header.set_path(&file.path)?;
        header.set_entry_type(tar::EntryType::Regular);
        header.set_mode(mode_of(file));
        header.set_size(file.bytes.len() as u64);
        header.set_mtime(ARCHIVE_MTIME);
        header.set_uid(0);
        header.set_gid(0);
        header.set_cksum();
        builder.append(&header, file.bytes.as_slice())?;
    }
    let gz = builder.into_inner()?;
    gz.finish()
}

/// A `.zip` of `files`, deflated, with Unix modes and the fixed timestamp.
pub fn zip(files: &[SkillFile]) -> zip::result::ZipResult<Vec<u8>> {
    use zip::write::SimpleFileOptions;
    let base = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(i64::from(LEVEL)))
        .last_modified_time(zip::DateTime::default())
        .system(zip::System::Unix);
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for file in files {
        writer.start_file(file.path.as_str(), base.unix_permissions(mode_of(file)))?;
        writer.write_all(&file.bytes)?;
    }
    Ok(writer.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn sample() -> Vec<SkillFile> {
        let file = |path: &str, bytes: &[u8], executable| SkillFile {
            path: path.into(),
            bytes: bytes.to_vec(),
            executable,
        };
        vec![
            file("SKILL.md", b"---\nname: x\ndescription: y\n---\n", false),
            file("a-b.txt", b"dash", false),
            file("a/b.txt", b"slash", false),
            file("scripts/run.sh", b"#!/bin/sh\necho hi\n", true),
        ]
    }

    #[test]
    fn tar_gz_is_reproducible_and_pins_every_header_field() {
        let files = sample();
        let bytes = tar_gz(&files).unwrap();
        assert_eq!(bytes, tar_gz(&files).unwrap());
        // gzip header: magic, deflate, no flags, mtime 0, OS byte 255.
        assert_eq!(&bytes[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255]);

        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
        let mut seen = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            let header = entry.header().clone();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            assert_eq!(header.mtime().unwrap(), ARCHIVE_MTIME, "{path}");
            assert_eq!((header.uid().unwrap(), header.gid().unwrap()), (0, 0));
            assert_eq!(header.username().unwrap(), Some(""));
            let mut content = Vec::new();
            entry.read_to_end(&mut content).unwrap();
            seen.push((path, header.mode().unwrap(), content));
        }
        let summary: Vec<(&str, u32)> = seen.iter().map(|(p, m, _)| (p.as_str(), *m)).collect();
        assert_eq!(
            summary,
            [
                ("SKILL.md", 0o644),
                ("a-b.txt", 0o644),
                ("a/b.txt", 0o644),
                ("scripts/run.sh", 0o755),
            ]
        );
        assert_eq!(seen[3].2, b"#!/bin/sh\necho hi\n");
    }

    /// Readers that know only ustar (no GNU long names) must still see every
    /// path: read the raw `name` and `prefix` fields the way they do.
    #[test]
    fn long_paths_use_the_ustar_prefix_not_gnu_records() {
        let long = format!("references/{}/{}.md", "d".repeat(120), "f".repeat(90));
        assert!(long.len() > 200);
        let files = vec![SkillFile {
            path: long.clone(),
            bytes: b"deep".to_vec(),
            executable: false,
        }];
        let gz = tar_gz(&files).unwrap();
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(gz.as_slice())
            .read_to_end(&mut raw)
            .unwrap();
        let field = |from: usize, len: usize| {
            let bytes = &raw[from..from + len];
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(len);
            String::from_utf8(bytes[..end].to_vec()).unwrap()
        };
        assert_eq!(
            raw[156], b'0',
            "a regular-file header comes first, no 'L' record"
        );
        assert_eq!(&raw[257..263], b"ustar\0");
        assert_eq!(format!("{}/{}", field(345, 155), field(0, 100)), long);
    }

    #[test]
    fn zip_is_reproducible_with_modes_and_fixed_time() {
        let files = sample();
        let bytes = zip(&files).unwrap();
        assert_eq!(bytes, zip(&files).unwrap());
        let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
        let mut names = Vec::new();
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i).unwrap();
            let name = entry.name().unwrap().into_owned();
            assert_eq!(
                entry.last_modified(),
                Some(zip::DateTime::default()),
                "{name}"
            );
            let mode = entry.unix_mode().unwrap() & 0o777;
            let mut content = Vec::new();
            entry.read_to_end(&mut content).unwrap();
            if name == "scripts/run.sh" {
                assert_eq!(content, b"#!/bin/sh\necho hi\n");
            }
            names.push((name, mode));
        }
        let names: Vec<(&str, u32)> = names.iter().map(|(n, m)| (n.as_str(), *m)).collect();
        assert_eq!(
            names,
            [
                ("SKILL.md", 0o644),
                ("a-b.txt", 0o644),
                ("a/b.txt", 0o644),
                ("scripts/run.sh", 0o755),
            ]
        );
    }
}
