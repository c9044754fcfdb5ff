//! The `hclwright` command-line tool.

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The stack of the thread the tool runs on: reserved address space, used
/// (and so backed by memory) only as deep as a file's nesting needs. Walks
/// over syntax trees recurse per level of nesting, and so does freeing a
/// tree, so a file nested as deeply as the parser accepts
/// ([`hclwright::MAX_DEPTH`] levels) needs far more than the 8 MiB of a
/// main thread.
const STACK_SIZE: usize = 4 << 30;

/// `mi_option_purge_delay` in `mimalloc.h` (v3, the version the
/// bindings build), which the bindings do not name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The purge delay's default in mimalloc v3, in milliseconds.
const DEFAULT_PURGE_DELAY: std::ffi::c_long = 1000;

/// Sets the allocator's purge delay to 0, after checking that the option
/// at [`MI_OPTION_PURGE_DELAY`] holds that option's default, so that
/// another numbering of the options changes nothing.
///
/// Memory freed during a run (the tokens of a large file once its layout
/// is made, say) is then given back to the system at once rather than
/// after the allocator's default second, which a run on a large file
/// outlives while it allocates its next buffers. On 9.4 MB of Terraform
/// (`scripts/bench-memory/run.sh`) peak resident memory goes from 87 to
/// 72 MB for `fmt`, 50 to 35 MB for `check`, 49 to 38 MB for `set`; the
/// price is the page faults of memory taken again (`fmt` of that file
/// 0.17 -> 0.20 s; no change on `fmt -check -recursive` over the 1 189
/// files of `../shared/golden/terraform`). The language server, which
/// runs for hours, keeps the default.
pub(crate) fn give_freed_memory_back_at_once() {
    // SAFETY: reading and setting an allocator option (an atomic value).
    unsafe {
        if libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) == DEFAULT_PURGE_DELAY {
            libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
        }
    }
}

/// A run lasts milliseconds: the memory it touches is cheaper to fault in
/// 4 KiB at a time than as 2 MiB transparent huge pages (which the
/// allocator asks for, and which the kernel zeroes whole on first touch).
/// Measured with the allocator's own switch for the same thing
/// (`MIMALLOC_ALLOW_THP=0`) on `fmt -check -recursive` over the 1 189
/// files of `../shared/golden/terraform`: 27.5 ms -> 22.8 ms, 20 runs each.
///
/// Done before `main`, as the loader runs the program's initializers: the
/// runtime allocates before `main` starts, and its first allocation
/// faulted in (and zeroed) a whole huge page, a sixth of the time of
/// `hclwright --version`.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static DISABLE_HUGE_PAGES_AT_START: extern "C" fn() = {
    extern "C" fn disable_huge_pages() {
        // A system call only: nothing here needs the runtime.
        let _ = rustix::thread::disable_transparent_huge_pages(true);
    }
    disable_huge_pages
};

/// Restores the default action of SIGPIPE (end the process, silently),
/// which the Rust runtime sets to "ignore" before `main`.
///
/// With it ignored, a write to a pipe whose reader has gone
/// (`hclwright refs . | head -1`) fails with `EPIPE`, `print!` panics
/// ("failed printing to stdout: Broken pipe" and a backtrace), and a
/// command that ignores the error of its writes goes on working for
/// nobody. With the default action the process ends at its first such
/// write, quietly, as `cat` or `grep` do (the shell sees status 141, the
/// usual status of a pipeline's writer cut short). One switch covers every
/// command and every write, where handling `BrokenPipe` would need every
/// print of every command to go through one helper (ripgrep did the same
/// for years). The language server keeps SIGPIPE ignored: a client that
/// goes away is an error it reports and handles itself.
#[cfg(unix)]
fn end_quietly_on_closed_pipe(args: &[std::ffi::OsString]) {
    if args.get(1).is_some_and(|a| a == "lsp") {
        return;
    }
    // SAFETY: setting a signal's action to its default, before any other
    // thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    #[cfg(unix)]
    end_quietly_on_closed_pipe(&args);
    let code = std::thread::Builder::new()
        .name("hclwright".to_string())
        .stack_size(STACK_SIZE)
        .spawn(move || cli::run(args))
        .map(|worker| worker.join().unwrap_or(cli::EXIT_ERRORS))
        .unwrap_or_else(|e| {
            eprintln!("hclwright: cannot start: {e}");
            cli::EXIT_ERRORS
        });
    std::process::exit(code);
}
