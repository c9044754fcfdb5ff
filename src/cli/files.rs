//! The files a command is given: its paths expanded into inputs, with
//! directories walked by the pipeline. Above [`input`](super::input) and
//! [`pipeline`](super::pipeline); `Input` is re-exported for the commands
//! that name it from here.

pub use super::input::Input;
use super::pipeline::WalkError;

/// Expands paths: `-` is stdin, files are taken as given, directories are
/// walked (recursively when `recursive`) for HCL files, skipping hidden
/// folders (`.terraform` among them) and symbolic links to directories.
/// Files come out sorted within each directory, before its subdirectories.
/// Paths that cannot be read are returned as errors.
///
/// Commands that read every file should rather use
/// [`pipeline::run`](super::pipeline::run), which reads and processes the
/// files while the walk goes on.
pub fn expand(paths: &[String], recursive: bool) -> (Vec<Input>, Vec<WalkError>) {
    let walked = super::pipeline::run(paths, recursive, |_| ());
    let inputs = walked.results.into_iter().map(|(input, _)| input).collect();
    (inputs, walked.errors)
}

/// As [`expand`], with the JSON syntax's files found in folders too
/// (`.tf.json`, `.tfvars.json`, `.hcl.json`, `.nomad.json`).
pub fn expand_with_json(paths: &[String], recursive: bool) -> (Vec<Input>, Vec<WalkError>) {
    let walked = super::pipeline::run_with_json(paths, recursive, |_| ());
    let inputs = walked.results.into_iter().map(|(input, _)| input).collect();
    (inputs, walked.errors)
}
