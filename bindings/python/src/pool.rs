//! Rayon's work on every core in a pool that survives `fork`.
//!
//! Rayon's global pool is made once per process, and its threads are not
//! copied by `fork`: a child forked from a process that used it (Python's
//! `multiprocessing` with the `fork` start method, PyTorch's data loader
//! workers) waited forever on its first parallel call. This pool is made
//! again in each process that uses it.

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex, PoisonError};

/// The pool and the process it was made in.
static POOL: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);

/// Runs `work` in a pool of one thread per core that this process made;
/// its parallel iterators and joins run on that pool. Where no thread can
/// be started, `work` runs on rayon's global pool.
pub fn every_core<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    let process = std::process::id();
    // The lock is held only to look and to store, never while threads
    // start: a fork meanwhile would leave it held in the child.
    let ours = |pool: &Option<(u32, Arc<ThreadPool>)>| match pool {
        Some((owner, pool)) if *owner == process => Some(Arc::clone(pool)),
        _ => None,
    };
    let mut pool = ours(&POOL.lock().unwrap_or_else(PoisonError::into_inner));
    if pool.is_none()
        && let Ok(made) = ThreadPoolBuilder::new().build()
    {
        let mut slot = POOL.lock().unwrap_or_else(PoisonError::into_inner);
        // Another thread may have stored one meanwhile: that one is kept.
        pool = ours(&slot);
        if pool.is_none() {
            let made = Arc::new(made);
            // A pool from before a fork is the parent's: its threads are not
            // here, and its state is as the fork found it. It is forgotten,
            // not dropped.
            if let Some(old) = slot.replace((process, Arc::clone(&made))) {
                std::mem::forget(old);
            }
            pool = Some(made);
        }
    }
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}
