//! Green nodes and tokens are carved from chunks (vendor/rowan/src/chunk.rs):
//! a chunk is reused only once every block carved from it is freed, tokens
//! a table shares between trees do not keep the trees' chunks alive, and
//! the chunks of trees freed on other threads go back to the system.
//!
//! One test in this binary: the bytes held in chunks are counted for the
//! whole process.

use rowan::{GreenNode, GreenToken, NodeOrToken, SyntaxKind};

const CHUNK: usize = 64 << 10;
/// What a thread keeps for its next trees (chunk.rs: 62 spare chunks and
/// the two being carved).
const KEPT_BY_A_THREAD: usize = 64 * CHUNK;

/// A configuration of `n` items whose texts differ with `seed`.
fn config(n: usize, seed: usize) -> String {
    (0..n)
        .map(|i| format!("item_{seed}_{i} = {{ n = {i}, s = \"{seed}-{i}\" }} # {seed}\n"))
        .collect()
}

/// A tree of `n` nodes, each holding `token` and a token of its own: more
/// than a chunk's worth of blocks.
fn tree_holding(token: &GreenToken, n: usize) -> GreenNode {
    let items = (0..n).map(|i| {
        let own = GreenToken::new(SyntaxKind(3), &format!("own{i}"));
        NodeOrToken::Node(GreenNode::new(
            SyntaxKind(4),
            [token.clone().into(), own.into()],
        ))
    });
    GreenNode::new(SyntaxKind(5), items.collect::<Vec<_>>())
}

#[test]
fn chunks_are_reused_only_when_free_and_go_back_to_the_system() {
    // 1. Trees dropped in a scrambled order while others are built: every
    // tree still alive reads as its text (a block reused while it was
    // live would change it).
    let mut alive: Vec<(String, hclwright::Parse)> = Vec::new();
    let mut state = 12345usize;
    for step in 0..600 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let size = 1 + (state >> 33) % 300;
        let text = config(size, step);
        let parse = hclwright::parse(&text);
        alive.push((text, parse));
        if alive.len() > 20 {
            let victim = (state >> 17) % alive.len();
            alive.swap_remove(victim);
        }
        if step % 25 == 0 {
            for (text, parse) in &alive {
                assert_eq!(parse.syntax().to_string(), *text, "step {step}");
            }
        }
    }
    for (text, parse) in &alive {
        assert_eq!(parse.syntax().to_string(), *text);
    }
    drop(alive);

    // 2. A token kept from each of many dropped trees: made for sharing
    // (`new_shared`, as the identifier table makes them), it is carved
    // apart from the trees and their chunks are reused; made as a tree's
    // own token, each one keeps its tree's chunk.
    let held_after = |shared: bool| {
        std::thread::spawn(move || {
            let before = rowan::chunk_bytes();
            let kept: Vec<GreenToken> = (0..100)
                .map(|i| {
                    let text = format!("name{i}");
                    let token = if shared {
                        GreenToken::new_shared(SyntaxKind(1), &text)
                    } else {
                        GreenToken::new(SyntaxKind(1), &text)
                    };
                    // About two chunks of blocks, dropped at once.
                    drop(tree_holding(&token, 3_000));
                    token
                })
                .collect();
            let held = rowan::chunk_bytes() - before;
            assert!(
                kept.iter()
                    .enumerate()
                    .all(|(i, t)| t.text() == format!("name{i}"))
            );
            held
        })
        .join()
        .unwrap()
    };
    let shared = held_after(true);
    let own = held_after(false);
    assert!(
        shared <= KEPT_BY_A_THREAD,
        "shared tokens held {shared} bytes of chunks"
    );
    assert!(
        own >= 100 * CHUNK,
        "tokens of the trees' own held {own} bytes of chunks"
    );

    // 3. Trees built on threads that end and dropped on others: once all
    // have ended, their chunks are back with the system.
    let before = rowan::chunk_bytes();
    let built: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let text = config(2_000 + i, i);
                let parse = hclwright::parse(&text);
                (text, parse)
            })
        })
        .map(|t| t.join().unwrap())
        .collect();
    assert!(
        rowan::chunk_bytes() - before > 4 * CHUNK,
        "the trees are large"
    );
    let droppers: Vec<_> = built
        .into_iter()
        .map(|(text, parse)| {
            std::thread::spawn(move || {
                assert_eq!(parse.syntax().to_string(), text);
                drop(parse);
            })
        })
        .collect();
    for dropper in droppers {
        dropper.join().unwrap();
    }
    assert_eq!(
        rowan::chunk_bytes(),
        before,
        "chunks left after the threads ended"
    );

    // 4. A small tree (blocks of one chunk) dropped on a thread that
    // builds nothing: the frees it gathered are subtracted when it ends.
    let before = rowan::chunk_bytes();
    let small = std::thread::spawn(|| {
        let token = GreenToken::new(SyntaxKind(1), "name");
        tree_holding(&token, 10)
    })
    .join()
    .unwrap();
    assert_eq!(
        rowan::chunk_bytes() - before,
        CHUNK,
        "one chunk holds the tree"
    );
    std::thread::spawn(move || drop(small)).join().unwrap();
    assert_eq!(
        rowan::chunk_bytes(),
        before,
        "the small tree's chunk was kept"
    );
}
