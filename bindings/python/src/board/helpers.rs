//! Threads that help one calling thread with a short task: the planes of a
//! batch, some tens of microseconds of work.
//!
//! Rayon's pool measured too slow to start and end such a task here: its
//! idle workers yield to the kernel and then sleep, a thread from outside
//! the pool waits for a scope's end on a condition variable, and the
//! wake-ups on both sides cost about as much as the planes of a batch of
//! 4,096 rows (docs/performance.md, "Planes: helpers that wait awake").
//! These helpers instead wait awake for [`SPIN`] after each task, without a
//! system call, and only then park; the caller waits for them awake too.
//!
//! A task is offered, never owed: the caller does the work itself, and
//! helpers that arrive late find none left. So a process forked from one
//! that had helpers (which has none) still gets its work done, and a second
//! caller while the helpers are busy works alone.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError, TryLockError};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long a helper waits awake for the next task before it parks.
const SPIN: Duration = Duration::from_micros(100);
/// The most helpers, whatever the core count: a batch of 4,096 rows is 16
/// parts of 256 rows.
const MOST: usize = 7;

/// A task as helpers see it: its lifetime erased ([`help`] keeps it alive
/// for as long as a helper may run it).
#[derive(Clone, Copy)]
struct Task(*const (dyn Fn(bool) + Sync + 'static));

// SAFETY: a `Task` points to a `dyn Fn(bool) + Sync`, which any thread may call
// through a shared reference.
#[allow(unsafe_code)]
unsafe impl Send for Task {}

/// What the caller and the helpers share.
struct Shared {
    /// The task on offer, if any. A helper takes part in it only while
    /// holding this lock, and counts itself in [`Shared::running`] there.
    offer: Mutex<Option<Task>>,
    /// Helpers running the task on offer (or the one just withdrawn).
    running: AtomicUsize,
    /// Bumped for every task offered.
    generation: AtomicU64,
    /// Helpers parked, or about to park.
    parked: AtomicUsize,
    /// One caller at a time offers tasks.
    caller: Mutex<()>,
    /// The helpers, to unpark them.
    threads: OnceLock<Vec<Thread>>,
}

static SHARED: Shared = Shared {
    offer: Mutex::new(None),
    running: AtomicUsize::new(0),
    generation: AtomicU64::new(0),
    parked: AtomicUsize::new(0),
    caller: Mutex::new(()),
    threads: OnceLock::new(),
};

/// The helpers, started on first use: one per core beyond the first, at
/// most [`MOST`]; fewer if the system starts fewer.
fn threads() -> &'static [Thread] {
    SHARED.threads.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        (1..cores.min(MOST + 1))
            .map_while(|index| {
                std::thread::Builder::new()
                    .name(format!("bitboards-helper-{index}"))
                    .spawn(wait)
                    .ok()
                    .map(|handle| handle.thread().clone())
            })
            .collect()
    })
}

/// How many threads [`help`] can run a task on: the caller and its helpers.
pub fn threads_available() -> usize {
    1 + threads().len()
}

/// A helper's life: wait for a task, run it, again.
fn wait() {
    let mut seen = SHARED.generation.load(Ordering::Acquire);
    loop {
        let mut deadline = Instant::now() + SPIN;
        let mut spins = 0u32;
        while SHARED.generation.load(Ordering::Acquire) == seen {
            spins = spins.wrapping_add(1);
            if !spins.is_multiple_of(64) || Instant::now() < deadline {
                std::hint::spin_loop();
                continue;
            }
            // Counted as parked before the generation is read again: a
            // caller that bumps it after this read sees the count and
            // unparks this thread (an unpark before the park is kept).
            SHARED.parked.fetch_add(1, Ordering::SeqCst);
            if SHARED.generation.load(Ordering::SeqCst) == seen {
                std::thread::park();
            }
            SHARED.parked.fetch_sub(1, Ordering::SeqCst);
            deadline = Instant::now() + SPIN;
        }
        seen = SHARED.generation.load(Ordering::Acquire);
        let task = {
            let offer = SHARED.offer.lock().unwrap_or_else(PoisonError::into_inner);
            if offer.is_some() {
                SHARED.running.fetch_add(1, Ordering::Relaxed);
            }
            *offer
        };
        if let Some(Task(task)) = task {
            // SAFETY: the task was on offer when this helper counted itself
            // in `running` (under the offer's lock), and `help` does not
            // return, so the task stays alive, until `running` is back to
            // zero, which this helper makes it only after its last use of
            // the task (the Release below).
            #[allow(unsafe_code)]
            let task = unsafe { &*task };
            // A panic would end this helper; the task's own code decides
            // what a panic means (the caller's run of it panics alike).
            let _ = catch_unwind(AssertUnwindSafe(|| task(true)));
            SHARED.running.fetch_sub(1, Ordering::Release);
        }
    }
}

/// Withdraws the offer and waits for the helpers that took it, also when
/// the caller's own run of the task panics.
struct Withdraw;

impl Drop for Withdraw {
    fn drop(&mut self) {
        *SHARED.offer.lock().unwrap_or_else(PoisonError::into_inner) = None;
        let mut spins = 0u32;
        while SHARED.running.load(Ordering::Acquire) != 0 {
            spins = spins.wrapping_add(1);
            if spins < 1 << 16 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// Runs `task(false)` on this thread and offers `task(true)` to the
/// helpers meanwhile;
/// returns once every thread that took it has returned from it. `task`
/// shares its work out itself (each run takes parts until none are left),
/// and must be correct however many threads run it, from one.
pub fn help(task: &(dyn Fn(bool) + Sync)) {
    let threads = threads();
    let _caller = match SHARED.caller.try_lock() {
        Ok(guard) => guard,
        Err(TryLockError::Poisoned(guard)) => guard.into_inner(),
        // Another caller has the helpers: this one works alone.
        Err(TryLockError::WouldBlock) => return task(false),
    };
    if threads.is_empty() {
        return task(false);
    }
    let erased: *const (dyn Fn(bool) + Sync + '_) = task;
    // SAFETY: only the lifetime changes; `Withdraw` below does not let this
    // function return (or unwind) while a helper may still use the task.
    #[allow(unsafe_code)]
    let erased: *const (dyn Fn(bool) + Sync + 'static) = unsafe { std::mem::transmute(erased) };
    *SHARED.offer.lock().unwrap_or_else(PoisonError::into_inner) = Some(Task(erased));
    let _withdraw = Withdraw;
    SHARED.generation.fetch_add(1, Ordering::SeqCst);
    if SHARED.parked.load(Ordering::SeqCst) != 0 {
        threads.iter().for_each(Thread::unpark);
    }
    task(false);
}

#[cfg(test)]
mod tests {
    //! Also run under Miri (.ci/run): the lifetime the offer erases, the
    //! helpers' count and the parking.
    use super::{help, threads_available};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Runs a task of `parts` parts through [`help`]; each part is taken
    /// once, by whichever thread comes first, and written into a vector
    /// on the caller's stack. Returns who wrote each part.
    fn share(parts: usize) -> Vec<Option<bool>> {
        let next = AtomicUsize::new(0);
        let written = Mutex::new(vec![None; parts]);
        help(&|helper| {
            loop {
                let part = next.fetch_add(1, Ordering::Relaxed);
                if part >= parts {
                    break;
                }
                let mut written = written.lock().unwrap();
                assert_eq!(written[part], None, "part {part} taken twice");
                written[part] = Some(helper);
            }
        });
        written.into_inner().unwrap()
    }

    #[test]
    fn every_part_is_done_once_before_help_returns() {
        assert!(threads_available() >= 1);
        for parts in [0, 1, 2, 7, 64] {
            for _ in 0..3 {
                let written = share(parts);
                assert!(
                    written.iter().all(Option::is_some),
                    "{parts} parts: {written:?}"
                );
            }
        }
    }

    #[test]
    fn callers_on_several_threads_each_get_their_work_done() {
        std::thread::scope(|scope| {
            let calls: Vec<_> = (0..3)
                .map(|_| scope.spawn(|| (0..4).all(|_| share(16).iter().all(Option::is_some))))
                .collect();
            for call in calls {
                assert!(call.join().unwrap());
            }
        });
    }

    #[test]
    fn a_helper_takes_the_task_when_there_is_one() {
        // On one core there is no helper (under Miri: `-Zmiri-num-cpus`).
        if threads_available() < 2 {
            return;
        }
        // The caller waits (a while) for a helper to come before it works.
        let helped = (0..20).any(|_| {
            let came = AtomicUsize::new(0);
            help(&|helper| {
                if helper {
                    came.fetch_add(1, Ordering::Release);
                } else {
                    for _ in 0..10_000 {
                        if came.load(Ordering::Acquire) != 0 {
                            break;
                        }
                        std::thread::yield_now();
                    }
                }
            });
            came.load(Ordering::Acquire) != 0
        });
        assert!(helped, "no helper took any of 20 tasks");
    }

    #[test]
    fn helpers_that_parked_are_woken_for_the_next_task() {
        share(8);
        // Longer than a helper waits awake.
        std::thread::sleep(super::SPIN * 20);
        assert!(share(8).iter().all(Option::is_some));
    }

    #[test]
    fn a_panic_of_the_caller_waits_for_the_helpers_then_unwinds() {
        let ran = AtomicUsize::new(0);
        let outcome = std::panic::catch_unwind(|| {
            help(&|helper| {
                ran.fetch_add(1, Ordering::Relaxed);
                assert!(helper, "the caller's run panics");
            })
        });
        assert!(outcome.is_err());
        assert!(ran.load(Ordering::Relaxed) >= 1);
        // The helpers are free for the next caller.
        assert!(share(4).iter().all(Option::is_some));
    }
}
