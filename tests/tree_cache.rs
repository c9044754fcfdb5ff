//! Where trees live (vendor/rowan/src/chunk.rs: green nodes and tokens
//! carved from chunks; src/pool.rs: syntax nodes from a per-thread cache of
//! freed blocks) and the shared tokens: what a thread keeps is bounded, it
//! is handed back when the thread ends, trees freed on another thread leak
//! nothing, and trees built from reused memory are the trees of their
//! texts.
//!
//! One test in this binary, so that nothing else allocates while the
//! counting allocator is read.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};

/// Counts the bytes the system allocator holds for this process.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The bytes held: the global allocator's and the chunks of green blocks
/// (mapped from the system, so the allocator does not see them).
fn live() -> isize {
    LIVE.load(Relaxed) + rowan::chunk_bytes() as isize
}

/// The most a thread keeps for its next trees, in each of its two caches:
/// chunks (chunk.rs: `MAX_SPARE` and the two being carved, of 64 KiB) and
/// freed syntax nodes (pool.rs's `MAX_CACHED_BYTES`).
const CACHE_BOUND: isize = 4 << 20;

/// The list of a thread's spare chunks: up to 62 pointers, in a vector
/// that grows to 64.
const SPARE_LIST: isize = 64 * 8;

/// A configuration of `n` attributes and blocks with few distinct names
/// (so that the identifier table stays small), every kind of token the
/// builder shares, and strings, numbers and comments of their own.
fn config(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "# item {i}\nresource \"aws_thing\" \"t\" {{\n  count = {i} + 1\n  tags = {{ name = \"n-{i}\", on = true }}\n  list = [for x in var.xs : x if x != null]\n  when = var.a >= 2 && !var.b ? \"${{var.c}}-x\" : null\n}}\n"
        ));
    }
    text
}

/// A tree of `n` small nodes, each with a token of its own and two
/// shared ones: every block is one the cache takes.
fn large_green_tree(n: usize) -> rowan::GreenNode {
    let eq = rowan::GreenToken::new(rowan::SyntaxKind(1), " = ");
    let nl = rowan::GreenToken::new(rowan::SyntaxKind(2), "\n");
    let items = (0..n).map(|i| {
        let name = rowan::GreenToken::new(rowan::SyntaxKind(3), &format!("name{i}"));
        rowan::NodeOrToken::Node(rowan::GreenNode::new(
            rowan::SyntaxKind(4),
            [name.into(), eq.clone().into(), nl.clone().into()],
        ))
    });
    rowan::GreenNode::new(rowan::SyntaxKind(5), items.collect::<Vec<_>>())
}

#[test]
fn the_tree_cache_is_bounded_handed_back_and_safe_across_threads() {
    // Make the process-wide shared tokens (kept for the life of the
    // process, like statics) before the first measurement.
    let warm = config(3);
    assert_eq!(hclwright::parse(&warm).syntax().to_string(), warm);

    // 1. A thread that drops a large tree keeps at most the cache's bound
    // of its blocks (the tree is built with rowan alone: a parse also keeps
    // its lexer's buffers for the next file, see scratch.rs).
    let (during, after_drop) = std::thread::spawn(|| {
        let start = live();
        let tree = large_green_tree(200_000);
        let during = live() - start;
        drop(tree);
        (during, live() - start)
    })
    .join()
    .unwrap();
    assert!(
        during > 4 * CACHE_BOUND,
        "the tree is large: {during} bytes"
    );
    assert!(
        (0..=CACHE_BOUND + SPARE_LIST).contains(&after_drop),
        "after the drop the thread kept {after_drop} bytes"
    );

    // A thread that parses and drops a large file hands everything back
    // when it ends.
    let big = config(8_000);
    let before = live();
    let big = std::thread::spawn(move || {
        let parse = hclwright::parse(&big);
        assert!(parse.errors().is_empty());
        assert!(live() - before > 2 * CACHE_BOUND, "the tree is large");
        drop(parse);
        big
    })
    .join()
    .unwrap();
    let leaked = live() - before;
    assert!(
        leaked < 64 << 10,
        "{leaked} bytes still held after the thread ended"
    );

    // 2. Parsing again and again on one thread reuses the cache: the bytes
    // held stay put, and every tree is its text.
    let texts: Vec<String> = (1..40).map(config).collect();
    let before = live();
    let mut high = 0;
    for round in 0..5 {
        for text in &texts {
            let parse = hclwright::parse(text);
            assert_eq!(parse.syntax().to_string(), *text, "round {round}");
            high = high.max(live() - before);
        }
    }
    assert!(high < CACHE_BOUND, "held {high} bytes");

    // 3. Trees built on some threads and dropped on others: the blocks go
    // to the dropping thread's cache, and nothing is left once all the
    // threads end.
    let before = live();
    let built: Vec<_> = (0..4)
        .map(|i| {
            let text = config(50 + i);
            std::thread::spawn(move || {
                let parse = hclwright::parse(&text);
                (text, parse)
            })
        })
        .collect();
    let parses: Vec<_> = built.into_iter().map(|t| t.join().unwrap()).collect();
    let droppers: Vec<_> = parses
        .into_iter()
        .map(|(text, parse)| {
            std::thread::spawn(move || {
                assert_eq!(parse.syntax().to_string(), text);
                drop(parse);
                // A new tree from the blocks just freed.
                let again = hclwright::parse(&text);
                assert_eq!(again.syntax().to_string(), text);
            })
        })
        .collect();
    for dropper in droppers {
        dropper.join().unwrap();
    }
    let leaked = live() - before;
    assert!(
        leaked < 64 << 10,
        "{leaked} bytes still held after the threads ended"
    );

    // 4. The big text still parses to itself on this thread, from blocks
    // its cache recycles.
    assert_eq!(hclwright::parse(&big).syntax().to_string(), big);

    // 5. Tokens of fixed text are one allocation for the whole process:
    // the `=` and the newline of trees parsed on different threads, at
    // different times, are the same token.
    let addresses = |text: &'static str| {
        std::thread::spawn(move || {
            let parse = hclwright::parse(text);
            let tokens: Vec<_> = parse
                .syntax()
                .descendants_with_tokens()
                .filter_map(|e| e.into_token())
                .filter(|t| t.text() == "=" || t.text() == "\n")
                .map(|t| (t.text().to_string(), t.green() as *const _ as usize))
                .collect();
            tokens
        })
        .join()
        .unwrap()
    };
    let first = addresses("a = 1\n");
    let second = addresses("b = \"x\"\n");
    assert_eq!(first.len(), 2);
    assert_eq!(first, second, "one `=` and one newline for the process");
}
