//! The compiler threads: where GLSL compiles, program links and every Cranelift compile a GL
//! call reaches run, on a stack sized for the front end's nesting limits
//! (`glsl::limits`) instead of the caller's (issue #11 item 1: a GL call from a thread
//! with a 64 KiB stack must work). What runs here is the caller's business; this file
//! owns only the threads and the hand-over.
//!
//! Threads are kept, not spawned per call: handing a job to a parked thread and waking the
//! caller costs about 6 µs, a `std::thread::scope` spawn with a big stack 35–300 µs on the
//! shared 2-core dev machine (mmap, clone, munmap), against about 4 ms for
//! `benches/glsl.rs`' compile and link of a 100-line shader (three hand-overs). Several
//! callers at once each get a thread of their own (a pool that grows with the number of
//! concurrent compiles, keeping at most `MAX_IDLE` parked), so contexts on different
//! threads, and raster workers compiling variants, still compile in parallel.
//!
//! A panic in a job unwinds on the compiler thread (the panic hook reports it there), is
//! caught, and resumes on the caller, where the GL dispatcher turns it into
//! GL_OUT_OF_MEMORY plus a debug message exactly as when compiles ran on the caller.

use std::any::Any;
use std::cell::Cell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Stack of each compiler thread: room for the deepest input the front end accepts
/// (`glsl::limits`) parsed, lowered and compiled in a debug build, with a margin of about
/// 2× for every limit reached at once. Measured in a debug build by compiling each shape at
/// its limit on smaller stacks: 2,000 nested parentheses need ~8 MiB (~4 KiB a level),
/// 1,000 nested blocks ~4 MiB, a 4,000-link chain under 4 MiB. Only the pages a compile
/// touches are committed.
pub const STACK_BYTES: usize = 64 << 20;

/// Parked threads kept for later compiles; a thread that finishes while this many wait
/// ends instead.
const MAX_IDLE: usize = 4;

type Job = Box<dyn FnOnce() + Send>;
type Outcome<R> = Result<R, Box<dyn Any + Send>>;

thread_local! {
    /// Set on compiler threads: a job that asks for a compiler thread runs where it is.
    static ON_COMPILER_THREAD: Cell<bool> = const { Cell::new(false) };
    /// A compiler thread's own job sender, put back on the idle list when its job is done.
    static SELF_SENDER: std::cell::RefCell<Option<Sender<Job>>> =
        const { std::cell::RefCell::new(None) };
    /// Whether this compiler thread parked itself after its last job (else it ends).
    static PARKED: Cell<bool> = const { Cell::new(false) };
}

/// Senders of parked compiler threads.
static IDLE: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

/// Whether the current thread is a compiler thread.
pub fn on_compiler_thread() -> bool {
    ON_COMPILER_THREAD.with(Cell::get)
}

/// Runs `job` on a compiler thread and returns its result; on the caller when the caller
/// is a compiler thread already (nested compiles), or when the OS refuses to start a
/// thread. A panic in `job` resumes on the caller with the same payload.
pub fn run_on_compiler_thread<R: Send + 'static>(job: impl FnOnce() -> R + Send + 'static) -> R {
    if on_compiler_thread() {
        return job();
    }
    let (tx, rx) = mpsc::sync_channel::<Outcome<R>>(1);
    let mut job: Job = Box::new(move || {
        let r = catch_unwind(AssertUnwindSafe(job));
        // Back on the idle list before the caller wakes, so its next compile finds this
        // thread instead of starting another.
        park_self();
        let _ = tx.send(r);
    });
    loop {
        let idle = IDLE.lock().unwrap_or_else(|p| p.into_inner()).pop();
        match idle {
            Some(worker) => match worker.send(job) {
                Ok(()) => break,
                // The thread has ended (it cannot, while listed; kept for safety).
                Err(mpsc::SendError(j)) => job = j,
            },
            None => match spawn(job) {
                Ok(()) => break,
                Err(j) => {
                    // No thread to be had: compile here, as before compiler threads.
                    j();
                    break;
                }
            },
        }
    }
    match rx.recv() {
        Ok(Ok(r)) => r,
        Ok(Err(payload)) => resume_unwind(payload),
        // The job always sends before it returns; only a thread killed mid-job gets here.
        Err(_) => panic!("a compiler thread ended without finishing its job"),
    }
}

/// Starts a compiler thread whose first job is `job`; gives the job back when the OS
/// refuses.
fn spawn(job: Job) -> Result<(), Job> {
    let (tx, rx) = mpsc::channel::<Job>();
    // Shared so that a failed spawn (which drops the closure unrun) can give the job back.
    let slot = Arc::new(Mutex::new(Some(job)));
    let theirs = slot.clone();
    let spawned = std::thread::Builder::new()
        .name("softgl-compiler".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let first = theirs.lock().unwrap_or_else(|p| p.into_inner()).take();
            serve(first, tx, rx)
        });
    match spawned {
        Ok(_) => Ok(()),
        Err(_) => match slot.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(job) => Err(job),
            // Unreachable: the closure never ran. Nothing to give back either way.
            None => Ok(()),
        },
    }
}

/// A compiler thread's life: run jobs until one leaves it off the idle list.
fn serve(first: Option<Job>, me: Sender<Job>, jobs: Receiver<Job>) {
    ON_COMPILER_THREAD.with(|c| c.set(true));
    SELF_SENDER.with(|s| *s.borrow_mut() = Some(me));
    let mut next = first;
    while let Some(job) = next.take().or_else(|| jobs.recv().ok()) {
        PARKED.with(|p| p.set(false));
        job();
        if !PARKED.with(Cell::get) {
            return;
        }
    }
}

/// Puts the current compiler thread back on the idle list, unless enough are parked.
fn park_self() {
    let Some(me) = SELF_SENDER.with(|s| s.borrow().clone()) else {
        return;
    };
    let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
    if idle.len() < MAX_IDLE {
        idle.push(me);
        PARKED.with(|p| p.set(true));
    }
}
