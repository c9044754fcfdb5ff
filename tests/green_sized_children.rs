//! Nodes built from children given with their lengths (our rowan's
//! `GreenNode::from_sized`, which the parser's tree builder uses), with
//! immortal tokens in entries of their own, are the same trees as
//! `GreenNode::new` builds: equal, hashed alike, read alike, and dropping
//! them leaves their immortal tokens whole.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use rowan::{GreenNode, GreenToken, NodeOrToken, SizedChild, SyntaxKind};

fn hash_of(node: &GreenNode) -> u64 {
    let mut hasher = DefaultHasher::new();
    node.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn a_sized_node_is_the_node_new_builds() {
    let immortal = GreenToken::new_immortal(SyntaxKind(1), "name");
    let own = GreenToken::new(SyntaxKind(2), "\"text\"");
    let inner_new = GreenNode::new(SyntaxKind(3), [immortal.clone().into(), own.clone().into()]);
    let (inner_sized, inner_len) = GreenNode::from_sized(
        SyntaxKind(3),
        [
            SizedChild::immortal_token(immortal.clone(), immortal.text_len()),
            SizedChild::token(own.clone(), own.text_len()),
        ],
    );
    assert_eq!(inner_len, inner_new.text_len());
    assert_eq!(inner_sized, inner_new);
    assert_eq!(hash_of(&inner_sized), hash_of(&inner_new));

    let outer_new = GreenNode::new(
        SyntaxKind(4),
        [inner_new.clone().into(), immortal.clone().into()],
    );
    let (outer_sized, outer_len) = GreenNode::from_sized(
        SyntaxKind(4),
        [
            SizedChild::node(inner_sized.clone(), inner_len),
            SizedChild::immortal_token(immortal.clone(), immortal.text_len()),
        ],
    );
    assert_eq!(outer_len, outer_new.text_len());
    assert_eq!(outer_sized, outer_new);
    assert_eq!(hash_of(&outer_sized), hash_of(&outer_new));
    assert_eq!(outer_sized.to_string(), "name\"text\"name");

    // The children read back as tokens and nodes, at their offsets.
    let kinds: Vec<_> = outer_sized
        .children()
        .map(|child| match child {
            NodeOrToken::Node(n) => n.kind(),
            NodeOrToken::Token(t) => t.kind(),
        })
        .collect();
    assert_eq!(kinds, [SyntaxKind(3), SyntaxKind(1)]);
    // Equality is by content: a node holding a counted token of the same
    // kind and text as the immortal one equals the node holding the
    // immortal one in its own kind of entry.
    let counted = GreenToken::new(SyntaxKind(1), "name");
    let with_counted = GreenNode::new(SyntaxKind(3), [counted.into(), own.clone().into()]);
    assert_eq!(with_counted, inner_sized);
}

#[test]
fn dropping_a_sized_node_leaves_its_immortal_tokens_whole() {
    let immortal = GreenToken::new_immortal(SyntaxKind(1), "kept_after_the_drop");
    for _ in 0..1000 {
        let children = (0..50)
            .map(|_| SizedChild::immortal_token(immortal.clone(), immortal.text_len()))
            .collect::<Vec<_>>();
        let (node, _) = GreenNode::from_sized(SyntaxKind(2), children);
        drop(node);
    }
    assert!(immortal.is_immortal());
    assert_eq!(immortal.text(), "kept_after_the_drop");
    // A copy that reads nothing is the same token.
    // SAFETY: the token is immortal.
    let copy = unsafe { immortal.copy_immortal() };
    assert_eq!(copy, immortal);
    drop(copy);
    assert_eq!(immortal.text(), "kept_after_the_drop");
}

#[test]
fn a_sized_child_gives_its_element_back() {
    let immortal = GreenToken::new_immortal(SyntaxKind(1), "x");
    let own = GreenToken::new(SyntaxKind(2), "1");
    let back = SizedChild::immortal_token(immortal.clone(), immortal.text_len()).into_element();
    assert_eq!(back, NodeOrToken::Token(immortal));
    let back = SizedChild::token(own.clone(), own.text_len()).into_element();
    assert_eq!(back, NodeOrToken::Token(own));
}

#[test]
fn parsed_trees_equal_their_rebuilt_copies() {
    // The parser builds with `from_sized` and immortal entries; rebuilding
    // every node with `GreenNode::new` gives an equal tree.
    fn rebuild(node: &rowan::GreenNodeData) -> GreenNode {
        GreenNode::new(
            node.kind(),
            node.children()
                .map(|child| match child {
                    NodeOrToken::Node(n) => NodeOrToken::Node(rebuild(n)),
                    NodeOrToken::Token(t) => NodeOrToken::Token(t.to_owned()),
                })
                .collect::<Vec<_>>(),
        )
    }
    let text = "locals {\n  a = var.x[count.index].name # note\n  b = \"${a}-1\"\n}\n";
    let parse = hclwright::parse(text);
    let green = parse.syntax().green().to_owned();
    let rebuilt = rebuild(&green);
    assert_eq!(rebuilt, green);
    assert_eq!(hash_of(&rebuilt), hash_of(&green));
    assert_eq!(green.to_string(), text);
}
