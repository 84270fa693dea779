//! Independent per-skill work (unpacking downloads into the store) spread
//! over the cores: an install of many small skills is bound by file creation
//! and hashing, which one thread leaves half idle on two cores.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The number of cores this process may use, asked once: the standard
/// library reads the cgroup's CPU quota (three files) on every call, and a
/// small install asks for it several times (docs/performance.md).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `f` applied to every item on up to one thread per core; results come back
/// in the order of `items`. A panic in `f` propagates to the caller. The
/// calling thread is one of the workers (one thread fewer to start and wait
/// for).
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = cores().min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return mine;
            };
            mine.push((i, f(item)));
        }
    };
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut done = work();
        for w in workers {
            done.extend(w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        done
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_input_order() {
        let items: Vec<u32> = (0..100).collect();
        assert_eq!(
            super::map(&items, |i| i * 2),
            (0..100).map(|i| i * 2).collect::<Vec<_>>()
        );
        assert!(super::map(&[] as &[u32], |i| *i).is_empty());
    }
}
