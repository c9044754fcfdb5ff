//! The walk-and-process pipeline of the commands that read many files
//! (`fmt`, `check`): worker threads list directories while others already
//! process the files found so far, and the results come back in the order
//! of a serial walk.
//!
//! Work is a stack of tasks (last in, first out, so the walk goes depth
//! first and roughly in output order) shared by the workers under one lock.
//! Each task carries its place in the serial order, a key of indices: a
//! command-line argument is `[i]`; in a directory keyed `k`, the `j`-th
//! file is `k ++ [0, j]` and the `j`-th subdirectory `k ++ [1, j]`, so
//! sorting the keys puts a directory's files before its subdirectories.
//! The calling thread is one of the workers; the others are started only
//! once there is more than one task to do, so a run over one file starts
//! no thread.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::input::{Folder, Input, Source};

/// Processing an input panicked (the panic message has been printed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panicked;

/// A path that could not be listed or opened.
#[derive(Debug)]
pub struct WalkError {
    /// The path, as shown.
    pub path: String,
    /// What the OS said.
    pub message: String,
}

impl std::fmt::Display for WalkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// What a run found, in walk order.
pub struct Walked<T> {
    /// Paths that could not be read.
    pub errors: Vec<WalkError>,
    /// Every input, with what `process` made of it.
    pub results: Vec<(Input, Result<T, Panicked>)>,
}

/// Expands `paths` as [`expand`](super::files::expand) does and calls
/// `process` on every input, files in parallel; `-` (standard input) is
/// processed first, on the calling thread, in argument order.
pub fn run<T, F>(paths: &[String], recursive: bool, process: F) -> Walked<T>
where
    T: Send,
    F: Fn(&Source) -> T + Sync,
{
    run_walk(paths, recursive, false, process)
}

/// As [`run`], with the JSON syntax's files (`.tf.json`, `.tfvars.json`,
/// `.hcl.json`, `.nomad.json`) found in folders too.
pub fn run_with_json<T, F>(paths: &[String], recursive: bool, process: F) -> Walked<T>
where
    T: Send,
    F: Fn(&Source) -> T + Sync,
{
    run_walk(paths, recursive, true, process)
}

fn run_walk<T, F>(paths: &[String], recursive: bool, json: bool, process: F) -> Walked<T>
where
    T: Send,
    F: Fn(&Source) -> T + Sync,
{
    let mut found = Vec::new();
    let mut tasks = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let key = vec![index(i)];
        if path == "-" {
            let source = Source::new(Input::Stdin);
            let result = process_caught(&process, &source);
            found.push((key, Found::Processed(source.into_input(), result)));
        } else {
            tasks.push(Task {
                key,
                job: Job::Argument(path.clone()),
            });
        }
    }
    tasks.reverse();
    let queue = Queue::new(tasks, found);
    let walk = Walk {
        recursive,
        json,
        process,
    };
    std::thread::scope(|scope| {
        let mut helpers_started = false;
        work(&queue, &walk, || {
            if !helpers_started {
                helpers_started = true;
                // Asked only now: it reads a few files under /proc and /sys.
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                for _ in 1..threads {
                    scope.spawn(|| work(&queue, &walk, || {}));
                }
            }
        });
    });
    queue.into_walked()
}

/// A unit of work and its place in the serial walk order.
struct Task {
    key: Vec<u32>,
    job: Job,
}

enum Job {
    /// A path given on the command line: a file or a directory.
    Argument(String),
    /// A directory to list, and the folder it was listed in.
    Directory(PathBuf, Arc<Folder>),
    /// A file to process.
    File(Source),
}

/// What a task produced, to be sorted by key.
enum Found<T> {
    Error(WalkError),
    Processed(Input, Result<T, Panicked>),
}

/// Keyed results of finished tasks.
type Keyed<T> = Vec<(Vec<u32>, Found<T>)>;

/// What a finished task hands back: new tasks and results.
struct Done<T> {
    tasks: Vec<Task>,
    found: Keyed<T>,
}

impl<T> Done<T> {
    /// One result and no new task.
    fn found(key: Vec<u32>, found: Found<T>) -> Done<T> {
        Done {
            tasks: Vec::new(),
            found: vec![(key, found)],
        }
    }
}

/// The shared state of the workers.
struct Queue<T> {
    state: Mutex<State<T>>,
    /// Signalled when tasks are pushed or the last task finishes.
    wake: Condvar,
}

struct State<T> {
    /// Tasks not started yet; the next one is at the end.
    tasks: Vec<Task>,
    /// Tasks pushed and not finished: the run is over at zero.
    outstanding: usize,
    /// Workers waiting for a task.
    idle: usize,
    found: Keyed<T>,
}

impl<T> Queue<T> {
    fn new(tasks: Vec<Task>, found: Keyed<T>) -> Queue<T> {
        Queue {
            state: Mutex::new(State {
                outstanding: tasks.len(),
                tasks,
                idle: 0,
                found,
            }),
            wake: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a finished task (if any) and takes the next one, waiting
    /// while other workers may still push some. `None`: the run is over.
    /// Also tells whether more tasks are waiting.
    fn next(&self, done: Option<Done<T>>) -> Option<(Task, bool)> {
        let mut state = self.lock();
        if let Some(done) = done {
            state.outstanding += done.tasks.len();
            state.outstanding -= 1;
            // Pushed in reverse, so the first one is taken first.
            state.tasks.extend(done.tasks.into_iter().rev());
            state.found.extend(done.found);
            if state.idle > 0 && (!state.tasks.is_empty() || state.outstanding == 0) {
                self.wake.notify_all();
            }
        }
        loop {
            if let Some(task) = state.tasks.pop() {
                return Some((task, !state.tasks.is_empty()));
            }
            if state.outstanding == 0 {
                return None;
            }
            state.idle += 1;
            state = self
                .wake
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.idle -= 1;
        }
    }

    /// The results, sorted into walk order.
    fn into_walked(self) -> Walked<T> {
        let mut found = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .found;
        found.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut walked = Walked {
            errors: Vec::new(),
            results: Vec::with_capacity(found.len()),
        };
        for (_, f) in found {
            match f {
                Found::Error(e) => walked.errors.push(e),
                Found::Processed(input, result) => walked.results.push((input, result)),
            }
        }
        walked
    }
}

/// What every task needs to know.
struct Walk<F> {
    recursive: bool,
    /// Whether folders' JSON syntax files are found too.
    json: bool,
    process: F,
}

/// Runs tasks until there are none left; `on_surplus` is called whenever
/// a task is taken while others are waiting.
fn work<T, F>(queue: &Queue<T>, walk: &Walk<F>, mut on_surplus: impl FnMut())
where
    F: Fn(&Source) -> T,
{
    let mut done = None;
    while let Some((task, more)) = queue.next(done.take()) {
        if more {
            on_surplus();
        }
        done = Some(run_task(task, walk));
    }
}

fn run_task<T, F>(task: Task, walk: &Walk<F>) -> Done<T>
where
    F: Fn(&Source) -> T,
{
    let key = task.key;
    match task.job {
        Job::File(source) => Done::found(key, processed(walk, source)),
        Job::Directory(dir, parent) => list(key, &dir, Some(&parent), walk),
        Job::Argument(path) => match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => list(key, Path::new(&path), None, walk),
            Ok(_) => {
                let source = Source::new(Input::File(PathBuf::from(path)));
                Done::found(key, processed(walk, source))
            }
            Err(e) => Done::found(
                key,
                Found::Error(WalkError {
                    path: path.to_string(),
                    message: e.to_string(),
                }),
            ),
        },
    }
}

/// Lists the directory `dir` (listed in `parent`, if given): its files and
/// subdirectories become tasks.
fn list<T, F>(key: Vec<u32>, dir: &Path, parent: Option<&Folder>, walk: &Walk<F>) -> Done<T> {
    let listed = Folder::open(dir, parent).and_then(|folder| {
        let listing = folder.list(walk.recursive, walk.json)?;
        Ok((Arc::new(folder), listing))
    });
    let (folder, listing) = match listed {
        Ok(listed) => listed,
        Err(e) => {
            return Done::found(
                key,
                Found::Error(WalkError {
                    path: dir.display().to_string(),
                    message: e.to_string(),
                }),
            );
        }
    };
    let child_key = |group: u32, j: usize| {
        let mut child = Vec::with_capacity(key.len() + 2);
        child.extend_from_slice(&key);
        child.extend([group, index(j)]);
        child
    };
    let files = listing.files.into_iter().enumerate().map(|(j, path)| Task {
        key: child_key(0, j),
        job: Job::File(Source::in_folder(path, folder.clone())),
    });
    let subdirs = listing
        .subdirs
        .into_iter()
        .enumerate()
        .map(|(j, path)| Task {
            key: child_key(1, j),
            job: Job::Directory(path, folder.clone()),
        });
    Done {
        tasks: files.chain(subdirs).collect(),
        found: Vec::new(),
    }
}

fn processed<T, F>(walk: &Walk<F>, source: Source) -> Found<T>
where
    F: Fn(&Source) -> T,
{
    let result = process_caught(&walk.process, &source);
    Found::Processed(source.into_input(), result)
}

/// Calls `process`, turning a panic into [`Panicked`] so that one bad
/// input does not lose the results of the others.
fn process_caught<T, F>(process: &F, source: &Source) -> Result<T, Panicked>
where
    F: Fn(&Source) -> T,
{
    catch_unwind(AssertUnwindSafe(|| process(source))).map_err(|_| Panicked)
}

/// A position as a key index (a directory of more than 4 billion entries
/// would not be listed anyway).
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn repo_path(relative: &str) -> String {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(relative)
            .display()
            .to_string()
    }

    /// The walk done one directory after the other, for comparison.
    fn serial_walk(dir: &Path, out: &mut Vec<Input>) {
        let listing = Folder::open(dir, None).unwrap().list(true, false).unwrap();
        out.extend(listing.files.into_iter().map(Input::File));
        for sub in &listing.subdirs {
            serial_walk(sub, out);
        }
    }

    #[test]
    fn results_come_in_serial_walk_order() {
        let fixtures = repo_path("fixtures");
        let mut expected = Vec::new();
        serial_walk(Path::new(&fixtures), &mut expected);
        assert!(expected.len() > 100, "{}", expected.len());
        let walked = run(std::slice::from_ref(&fixtures), true, |source| {
            source.input().clone()
        });
        assert!(walked.errors.is_empty(), "{:?}", walked.errors);
        let inputs: Vec<Input> = walked.results.iter().map(|(i, _)| i.clone()).collect();
        assert_eq!(inputs, expected);
        // Each result belongs to its input.
        for (input, result) in &walked.results {
            assert_eq!(result.as_ref(), Ok(input));
        }
    }

    #[test]
    fn a_panic_loses_only_its_own_input() {
        let cargo_toml = repo_path("Cargo.toml");
        let walked = run(
            &[
                "-".to_string(),
                cargo_toml.clone(),
                repo_path("no-such-file"),
            ],
            false,
            |source| match source.input() {
                Input::Stdin => panic!("test panic on purpose"),
                Input::File(path) => path.display().to_string(),
            },
        );
        assert_eq!(walked.errors.len(), 1);
        assert!(walked.errors[0].to_string().contains("no-such-file: "));
        assert_eq!(
            walked.results,
            [
                (Input::Stdin, Err(Panicked)),
                (Input::File(cargo_toml.clone().into()), Ok(cargo_toml))
            ]
        );
    }
}
