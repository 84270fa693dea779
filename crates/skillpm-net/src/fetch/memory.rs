//! Small bodies kept in memory (docs/performance.md#what-the-measurements-decided):
//! a v0.1 file is written once, by its caller, straight into the store's
//! staging tree, instead of into `tmp/`, renamed into `downloads/` and then
//! copied again. What one batch holds in memory is bounded by a
//! [`MemoryBudget`]: a body that would go past it is spilled to a temporary
//! file and ends up in `downloads/` as any artifact does, so a hostile index
//! listing many large files costs disk, never unbounded memory.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::digest::Digest;

/// How many body bytes one batch of small downloads may hold in memory.
pub(crate) const BATCH_MEMORY: u64 = 64 * 1024 * 1024;

/// Bytes of memory a batch may still take. Shared by its transfers; every
/// reservation is returned when the bytes it covers are dropped.
#[derive(Debug, Clone)]
pub(crate) struct MemoryBudget {
    left: Arc<AtomicU64>,
}

impl MemoryBudget {
    pub(crate) fn new(bytes: u64) -> Self {
        MemoryBudget {
            left: Arc::new(AtomicU64::new(bytes)),
        }
    }

    /// Takes `n` bytes of the budget into `held`, or nothing when fewer are left.
    pub(crate) fn take(&self, held: &mut Reservation, n: u64) -> bool {
        let taken = self
            .left
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| {
                left.checked_sub(n)
            })
            .is_ok();
        if taken {
            held.bytes += n;
        }
        taken
    }

    /// An empty reservation against this budget.
    pub(crate) fn reservation(&self) -> Reservation {
        Reservation {
            budget: self.left.clone(),
            bytes: 0,
        }
    }
}

/// Budget held by bytes in memory, given back on drop.
#[derive(Debug)]
pub(crate) struct Reservation {
    budget: Arc<AtomicU64>,
    bytes: u64,
}

impl Reservation {
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.fetch_add(self.bytes, Ordering::AcqRel);
    }
}

/// A body held in memory, with the budget it takes.
#[derive(Debug)]
pub struct InMemory {
    bytes: Vec<u8>,
    _held: Reservation,
}

impl InMemory {
    pub(crate) fn new(bytes: Vec<u8>, held: Reservation) -> Self {
        InMemory { bytes, _held: held }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Where a small download's verified bytes are.
#[derive(Debug, Clone)]
pub enum Held {
    /// In memory: the caller writes them where they belong.
    Memory(Arc<InMemory>),
    /// In a file whose bytes hashed to the digest: `downloads/sha256-<hex>`
    /// (a body spilled past the budget, or cached by an earlier run), or the
    /// store copy a 304 confirmed ([`crate::fetch::DownloadSpec::copy_at`]).
    File(PathBuf),
}

impl Held {
    /// The bytes, to be read once.
    pub fn reader(&self) -> io::Result<Box<dyn Read + Send + '_>> {
        Ok(match self {
            Held::Memory(body) => Box::new(body.bytes()),
            Held::File(path) => Box::new(std::fs::File::open(path)?),
        })
    }

    /// The file holding the bytes, when they are not in memory.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Held::Memory(_) => None,
            Held::File(path) => Some(path),
        }
    }
}

/// A verified small download (a v0.1 file).
#[derive(Debug, Clone)]
pub struct SmallDownload {
    pub digest: Digest,
    pub size: u64,
    pub held: Held,
    /// What the server said about these bytes (with
    /// [`crate::fetch::Revalidation::Given`]: for the caller to remember).
    pub validators: Option<crate::fetch::FileValidators>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_given_back_when_the_bytes_go() {
        let budget = MemoryBudget::new(10);
        let mut a = budget.reservation();
        assert!(budget.take(&mut a, 6));
        let mut b = budget.reservation();
        assert!(!budget.take(&mut b, 5), "only 4 bytes are left");
        assert!(budget.take(&mut b, 4));
        let body = InMemory::new(vec![0; 6], a);
        drop(b);
        let mut c = budget.reservation();
        assert!(budget.take(&mut c, 4));
        assert!(!budget.take(&mut c, 1));
        drop(body);
        assert!(budget.take(&mut c, 6));
    }
}
