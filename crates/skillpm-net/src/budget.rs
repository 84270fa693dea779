//! The retry budget per origin (docs/network.md): what one client has learnt
//! about each origin in this run. Once an origin has failed its retries in a
//! row, or one request gave up on it, it is unreachable for the rest of the
//! run and every later request to it fails at once, without a socket.

use std::collections::HashMap;
use std::sync::Mutex;

use super::Why;

/// Failures in a row and origins given up on, keyed by
/// `scheme://host[:port]`.
#[derive(Debug, Default)]
pub struct Budget {
    in_a_row: Mutex<HashMap<String, u32>>,
    down: Mutex<HashMap<String, (Why, u32)>>,
}

impl Budget {
    /// Why `origin` was given up on, and after how many attempts.
    pub fn down(&self, origin: &str) -> Option<(Why, u32)> {
        self.down.lock().ok()?.get(origin).cloned()
    }

    /// A success resets the count of failures in a row.
    pub fn succeeded(&self, origin: &str) {
        if let Ok(mut m) = self.in_a_row.lock() {
            m.remove(origin);
        }
    }

    /// Counts one more failure in a row; returns the count.
    pub fn failed(&self, origin: &str) -> u32 {
        let Ok(mut m) = self.in_a_row.lock() else {
            return u32::MAX;
        };
        let n = m.entry(origin.to_owned()).or_default();
        *n += 1;
        *n
    }

    /// Marks `origin` unreachable for the rest of the run (the first reason
    /// stays).
    pub fn give_up(&self, origin: &str, why: Why, attempts: u32) {
        if let Ok(mut m) = self.down.lock() {
            m.entry(origin.to_owned()).or_insert((why, attempts));
        }
    }
}
