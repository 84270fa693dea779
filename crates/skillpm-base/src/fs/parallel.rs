//! Independent per-skill work (unpacking downloads into the store) spread
//! over the cores: an install of many small skills is bound by file creation
//! and hashing, which one thread leaves half idle on two cores.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
/// for). With more items than cores it starts alone: it does the first item
/// and starts helpers only when the rest, at that item's pace, would take
/// [`WORTH_A_THREAD`] or more. A helper must be waited for even when it
/// finds nothing left to do, and on a machine whose cores are busy (the
/// audit's warm-up threads at the start of every cold add) a new thread
/// waited up to 5 ms for a core while its caller read the 5 skills alone in
/// 0.3 ms (docs/performance.md#what-the-measurements-decided).
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = cores().min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    if items.len() <= threads {
        return spread(items, &f, threads, Vec::new());
    }
    let started = Instant::now();
    let first = f(&items[0]);
    let rest = u32::try_from(items.len() - 1).unwrap_or(u32::MAX);
    if started.elapsed().saturating_mul(rest) < WORTH_A_THREAD {
        return std::iter::once(first)
            .chain(items[1..].iter().map(&f))
            .collect();
    }
    spread(items, &f, threads, vec![(0, first)])
}

/// [`map`] for items known to take long (a skill run in the sandbox, a
/// second or more each), or whose first item may wait on work of the whole
/// process (a folder's first new skill judged while the audit still
/// compiles what it needs): helpers start at once, so the other items do
/// not wait behind the first one.
pub fn map_at_once<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = cores().min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    spread(items, &f, threads, Vec::new())
}

/// The items after those in `done` on `threads` threads, the caller one of
/// them; every result in the order of `items`.
fn spread<T: Sync, R: Send>(
    items: &[T],
    f: &(impl Fn(&T) -> R + Sync),
    threads: usize,
    mut done: Vec<(usize, R)>,
) -> Vec<R> {
    let next = AtomicUsize::new(done.len());
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
    #[cfg(test)]
    HELPERS_STARTED.with(|n| n.set(n.get() + threads - 1));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        done.extend(work());
        for w in workers {
            done.extend(w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The least work left (at the first item's pace) worth starting helper
/// threads for: a thread costs about 50 µs to start and join on an idle
/// machine, and can wait milliseconds for a core on a busy one.
const WORTH_A_THREAD: Duration = Duration::from_millis(1);

#[cfg(test)]
thread_local! {
    /// Helper threads this thread has started (what the tests count).
    static HELPERS_STARTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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

    /// Cheap items (20 of them, far below a helper's start-up cost) are all
    /// done by the caller: no helper is started, nor waited for. Counted,
    /// not timed: a map that starts helpers fails it however fast they are.
    #[test]
    fn cheap_items_stay_on_the_calling_thread() {
        let helpers = || super::HELPERS_STARTED.with(std::cell::Cell::get);
        let caller = std::thread::current().id();
        let items: Vec<u32> = (0..20).collect();
        let before = helpers();
        let ran_on = super::map(&items, |i| (*i, std::thread::current().id()));
        assert_eq!(helpers(), before, "helpers were started");
        assert!(ran_on.iter().all(|(_, id)| *id == caller), "{ran_on:?}");
        assert_eq!(ran_on.iter().map(|(i, _)| *i).collect::<Vec<_>>(), items);
    }

    /// Items that take milliseconds are shared with helpers when there is
    /// a second core, the results still in order.
    #[test]
    fn slow_items_are_shared_among_the_cores() {
        let items: Vec<u32> = (0..8).collect();
        let ran = super::map(&items, |i| {
            std::thread::sleep(std::time::Duration::from_millis(3));
            (*i, std::thread::current().id())
        });
        assert_eq!(ran.iter().map(|(i, _)| *i).collect::<Vec<_>>(), items);
        let threads: std::collections::BTreeSet<_> =
            ran.iter().map(|(_, id)| format!("{id:?}")).collect();
        assert_eq!(threads.len() > 1, super::cores() > 1, "{threads:?}");
        // Two items on two cores get their helper at once, however quick.
        let before = super::HELPERS_STARTED.with(std::cell::Cell::get);
        super::map(&[1, 2], |i| *i);
        let started = super::HELPERS_STARTED.with(std::cell::Cell::get) - before;
        assert_eq!(started, super::cores().min(2) - 1);
    }

    /// With `map_at_once` the first two items run at the same time (each
    /// waits, up to 5 s, for another to arrive): no item runs alone first.
    #[test]
    fn items_mapped_at_once_start_together() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let arrived = AtomicUsize::new(0);
        let met = super::map_at_once(&[0, 1, 2], |_| {
            arrived.fetch_add(1, Ordering::SeqCst);
            let start = std::time::Instant::now();
            while arrived.load(Ordering::SeqCst) < 2 {
                if start.elapsed() > std::time::Duration::from_secs(5) {
                    return false;
                }
                std::thread::yield_now();
            }
            true
        });
        assert_eq!(met[0], super::cores() > 1, "{met:?}");
    }
}
