//! Dropping a green tree frees it without a call per node (`tear_down` in
//! vendor/rowan/src/green/node.rs, from a list of the nodes still to free
//! linked through their own reference counts): every node that nothing
//! else holds is freed once, a node or token another tree still holds is
//! left to it, and a tree of any width or depth drops without deepening
//! the call stack.
//!
//! Live green nodes are counted with `countme` (enabled for the tests), a
//! count for the whole process: one test in this binary.

use rowan::{GreenNode, GreenToken, NodeOrToken, SyntaxKind};

fn live_nodes() -> usize {
    countme::get::<GreenNode>().live
}

fn token(text: &str) -> GreenToken {
    GreenToken::new(SyntaxKind(1), text)
}

/// A node of two tokens: one of its own and `shared`.
fn leaf(i: usize, shared: &GreenToken) -> GreenNode {
    GreenNode::new(
        SyntaxKind(2),
        [
            NodeOrToken::Token(token(&format!("t{i};"))),
            NodeOrToken::Token(shared.clone()),
        ],
    )
}

/// A node of `width` nodes of two leaves each: 1 + 3 × `width` nodes.
fn wide(width: usize, shared: &GreenToken) -> GreenNode {
    let children: Vec<_> = (0..width)
        .map(|i| {
            NodeOrToken::Node(GreenNode::new(
                SyntaxKind(3),
                [
                    NodeOrToken::Node(leaf(2 * i, shared)),
                    NodeOrToken::Node(leaf(2 * i + 1, shared)),
                ],
            ))
        })
        .collect();
    GreenNode::new(SyntaxKind(4), children)
}

/// Every node of the tree, counted by walking it (a node held twice
/// counts twice).
fn nodes_in(node: &GreenNode) -> usize {
    let mut count = 0;
    let mut stack = vec![node.clone()];
    while let Some(node) = stack.pop() {
        count += 1;
        stack.extend(
            node.children()
                .filter_map(|child| child.into_node().map(|n| n.to_owned())),
        );
    }
    count
}

#[test]
fn dropping_a_tree_frees_the_nodes_only_it_holds() {
    countme::enable(true);
    let base = live_nodes();
    let shared = token("shared");

    // A wide tree: 200 nodes wait to be freed at once.
    let tree = wide(200, &shared);
    assert_eq!(live_nodes() - base, 601);
    assert_eq!(nodes_in(&tree), 601);
    drop(tree);
    assert_eq!(live_nodes(), base, "nodes left after the wide tree");

    // Subtrees held by a second tree outlive the first, and read as before.
    let first = wide(100, &shared);
    let held: Vec<GreenNode> = first
        .children()
        .step_by(7)
        .map(|child| child.into_node().expect("a node").to_owned())
        .collect();
    let texts: Vec<String> = held.iter().map(|node| node.to_string()).collect();
    let second = GreenNode::new(
        SyntaxKind(5),
        held.iter()
            .cloned()
            .map(NodeOrToken::Node)
            .collect::<Vec<_>>(),
    );
    drop(held);
    drop(first);
    assert_eq!(
        live_nodes() - base,
        1 + 15 * 3,
        "what the second tree holds"
    );
    let read: Vec<String> = second
        .children()
        .map(|child| child.into_node().expect("a node").to_string())
        .collect();
    assert_eq!(read, texts);
    // The shared token is held by each of the second tree's leaves and here.
    assert_eq!(shared.text(), "shared");
    drop(second);
    assert_eq!(live_nodes(), base, "nodes left after the second tree");

    // A node held twice within one tree, and by the caller.
    let inner = leaf(0, &shared);
    let twice = GreenNode::new(
        SyntaxKind(6),
        [
            NodeOrToken::Node(inner.clone()),
            NodeOrToken::Node(inner.clone()),
        ],
    );
    drop(twice);
    assert_eq!(live_nodes() - base, 1);
    assert_eq!(inner.to_string(), "t0;shared");
    drop(inner);
    assert_eq!(live_nodes(), base);

    // A chain a million nodes deep drops on a thread with a 256 KiB stack
    // (a call per level would need about a hundred times that).
    let mut chain = leaf(0, &shared);
    for _ in 0..1_000_000 {
        chain = GreenNode::new(SyntaxKind(7), [NodeOrToken::Node(chain)]);
    }
    assert_eq!(live_nodes() - base, 1_000_001);
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            // countme 3.0.1 counts a thread's first drop as a creation
            // when the thread has made none (its `do_dec` slow path calls
            // `inc`): make one first.
            drop(GreenNode::new(SyntaxKind(8), []));
            drop(chain)
        })
        .expect("a thread")
        .join()
        .expect("the chain drops");
    assert_eq!(live_nodes(), base, "nodes left after the chain");

    // A parsed file: every node the parser made is freed with its tree.
    let text = "a = 1\nb \"x\" {\n  c = [for k, v in var.m : { (k) = v }]\n}\n";
    let parse = hclwright::parse(text);
    let made = live_nodes() - base;
    assert!(made > 10, "{made} nodes");
    assert_eq!(parse.syntax().descendants().count(), made);
    drop(parse);
    assert_eq!(live_nodes(), base, "nodes left after the parse");
}
