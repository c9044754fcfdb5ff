//! Where hclwright's parse-and-drop time goes, by subtraction: the best
//! pass over the files (those both hclwright and `hcl-edit` accept) of
//! each stage alone, with the system allocator.
//!
//! ```text
//! cargo build --release --manifest-path compare/Cargo.toml --bin parse_split
//! compare/target/release/parse_split /work/shared/corpus 30
//! perf record -e cpu-clock -g compare/target/release/parse_split /work/shared/corpus 150 drop
//! ```
//!
//! Stages: lexing alone (`lexer::tokenize`), the checking parse
//! (`syntax_errors`: lexing and the parser's logic, no tree), the parse
//! with every tree kept (plus building the green tree), dropping the kept
//! trees, and parse-and-drop (the user's path).
//!
//! Then rowan's floor for these trees: each file's green tree built again
//! by rowan alone from a recorded list of events (start a node, add a
//! token, finish the node), as a parser's builder gets them but with no
//! lexing and no parsing: `GreenNode::new` for every node, a new
//! `GreenToken` for every token the parser allocates on its own (string
//! text, numbers, comments, whitespace with tabs, long names), a clone for
//! the tokens it shares from its tables. Kept, then built and dropped
//! after each file: what any parser producing this tree with rowan pays
//! at least. The interleaved run has rowan's build with the trees kept;
//! its build and drop is measured alone (below): after the other stages'
//! kept trees are freed it came out nearly twice as slow, 50 against 28
//! ms, while parse-and-drop measured the same either way.
//!
//! With a third argument, one stage runs alone in its process (no other
//! stage's freed heap to allocate from) and prints its best pass, for
//! comparing stages fairly and for a profiler: `drop` (parse and drop),
//! `floor` (rowan's build and drop) or `floor-unwrapped` (the same
//! without the nodes that wrap a single child: a lever measured).
//!
//! ```text
//! for m in drop floor floor-unwrapped; do compare/target/release/parse_split /work/shared/corpus 50 $m; done
//! ```

use hclwright::SyntaxKind::{self, *};
use rowan::{GreenNode, GreenNodeData, GreenToken, NodeOrToken};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

#[path = "../accepted.rs"]
mod accepted;

#[path = "../../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "passes are timed here, not with best_of")]
mod corpus;

fn main() {
    let mut args = std::env::args_os().skip(1);
    let dir = corpus::folder(args.next().map(PathBuf::from), "fixtures");
    let passes = accepted::passes(args.next(), 30);
    let mode = args.next();
    let only_drop = mode.as_ref().is_some_and(|a| a == "drop");
    let only_floor = mode
        .as_ref()
        .is_some_and(|a| a == "floor" || a == "floor-unwrapped");
    let (files, _) = corpus::load(&dir);
    let texts = accepted::texts_both_accept(files);
    let record_all = |unwrap: bool| -> Vec<Vec<Event>> {
        texts
            .iter()
            .map(|t| {
                let mut out = Vec::new();
                record(
                    hclwright::parse(t).syntax().green(),
                    &mut 0,
                    &mut out,
                    unwrap,
                );
                out
            })
            .collect()
    };
    let events = record_all(mode.as_ref().is_some_and(|m| m == "floor-unwrapped"));
    let floor_and_drop = || {
        for (e, t) in events.iter().zip(&texts) {
            black_box(replay(black_box(e), t));
        }
    };

    let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    let parse_and_drop = || {
        for t in &texts {
            let parse = hclwright::parse(black_box(t));
            black_box(parse.errors().len());
        }
    };
    if only_drop || only_floor {
        // One stage alone in its process, so that no other stage's heap
        // is left for it to allocate from: the best pass, in ms.
        let mut best = f64::INFINITY;
        for _ in 0..passes {
            let start = Instant::now();
            if only_drop {
                parse_and_drop();
            } else {
                floor_and_drop();
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        let what = if only_drop {
            "parse and drop"
        } else {
            "rowan alone: build and drop"
        };
        let nodes = events
            .iter()
            .flatten()
            .filter(|e| matches!(e, Event::Start(_)))
            .count();
        println!(
            "{what}: best of {passes} passes {:.2} ms ({nodes} nodes)",
            best * 1e3
        );
        return;
    }
    println!(
        "{} files ({mb:.2} MB), best of {passes} passes",
        texts.len()
    );
    let count = |f: fn(&Event) -> bool| events.iter().flatten().filter(|e| f(e)).count();
    println!(
        "their trees: {} nodes, {} tokens of which {} allocated on their own",
        count(|e| matches!(e, Event::Start(_))),
        count(|e| matches!(e, Event::Shared(_) | Event::Own(..))),
        count(|e| matches!(e, Event::Own(..))),
    );
    let mut best = [f64::INFINITY; 6];
    for _ in 0..passes {
        // Interleaved, so that a change of machine load hits every stage.
        let start = Instant::now();
        for t in &texts {
            black_box(hclwright::lexer::tokenize(black_box(t)).tokens.len());
        }
        best[0] = best[0].min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        for t in &texts {
            black_box(hclwright::syntax_errors(black_box(t)).len());
        }
        best[1] = best[1].min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        let kept: Vec<_> = texts
            .iter()
            .map(|t| hclwright::parse(black_box(t)))
            .collect();
        best[2] = best[2].min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        drop(black_box(kept));
        best[3] = best[3].min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        parse_and_drop();
        best[4] = best[4].min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        let kept: Vec<_> = events
            .iter()
            .zip(&texts)
            .map(|(e, t)| replay(black_box(e), t))
            .collect();
        best[5] = best[5].min(start.elapsed().as_secs_f64());
        drop(black_box(kept));
    }
    let ms = best.map(|b| b * 1e3);
    for (name, t) in [
        ("lex (tokenize)", ms[0]),
        ("checking parse (syntax_errors)", ms[1]),
        ("parse, trees kept", ms[2]),
        ("drop of the kept trees", ms[3]),
        ("parse and drop", ms[4]),
        ("rowan alone: build, kept", ms[5]),
    ] {
        println!("{name:<32} {t:>8.2} ms");
    }
    println!(
        "split: lex {:.2} ms, parser logic {:.2} ms, tree building {:.2} ms, drop (kept) {:.2} ms",
        ms[0],
        ms[1] - ms[0],
        ms[2] - ms[1],
        ms[3]
    );
}

/// True for the tokens the parser's builder allocates on their own (see
/// `src/parser/builder.rs`); it shares every other token from its tables.
fn own_token(kind: SyntaxKind, text: &str) -> bool {
    match kind {
        TEMPLATE_LITERAL | NUMBER | COMMENT | ERROR_TOKEN => true,
        WHITESPACE => text.len() > 64 || text.bytes().any(|b| b != b' '),
        IDENT => text.len() > 24,
        _ => text.len() > 3,
    }
}

/// One step of building a tree, as a parser makes them in order.
enum Event {
    Start(rowan::SyntaxKind),
    /// A token the parser shares (cloned from its tables).
    Shared(GreenToken),
    /// A token the parser allocates: its kind and its place in the text.
    Own(rowan::SyntaxKind, u32, u32),
    Finish,
}

/// The events that build `green`, whose text starts at `offset`; with
/// `unwrap`, without the nodes that wrap a single child (a lever measured:
/// the tree without `VARIABLE`, `LITERAL` and most `OBJECT_KEY` nodes).
fn record(green: &GreenNodeData, offset: &mut u32, out: &mut Vec<Event>, unwrap: bool) {
    let wrapper = unwrap && green.children().len() == 1 && *offset > 0;
    if !wrapper {
        out.push(Event::Start(green.kind()));
    }
    for child in green.children() {
        match child {
            NodeOrToken::Node(n) => record(n, offset, out, unwrap),
            NodeOrToken::Token(t) => {
                let kind = <hclwright::HclLanguage as rowan::Language>::kind_from_raw(t.kind());
                let end = *offset + u32::from(t.text_len());
                out.push(if own_token(kind, t.text()) {
                    Event::Own(t.kind(), *offset, end)
                } else {
                    Event::Shared(t.to_owned())
                });
                *offset = end;
            }
        }
    }
    if !wrapper {
        out.push(Event::Finish);
    }
}

/// The tree `events` describe, built by rowan alone from a flat list of
/// children, as a parser's builder does (`text` is the file's text).
fn replay(events: &[Event], text: &str) -> GreenNode {
    let mut parents: Vec<(rowan::SyntaxKind, usize)> = Vec::with_capacity(32);
    let mut children: Vec<NodeOrToken<GreenNode, GreenToken>> = Vec::with_capacity(64);
    for event in events {
        match event {
            Event::Start(kind) => parents.push((*kind, children.len())),
            Event::Shared(t) => children.push(NodeOrToken::Token(t.clone())),
            Event::Own(kind, start, end) => children.push(NodeOrToken::Token(GreenToken::new(
                *kind,
                &text[*start as usize..*end as usize],
            ))),
            Event::Finish => {
                let (kind, first) = parents.pop().expect("balanced events");
                let node = GreenNode::new(kind, children.drain(first..));
                children.push(NodeOrToken::Node(node));
            }
        }
    }
    match children.pop() {
        Some(NodeOrToken::Node(root)) => root,
        _ => unreachable!("the root is a node"),
    }
}
