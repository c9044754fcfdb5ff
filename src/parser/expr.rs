//! The expression language: operators by precedence, terms, postfix
//! chains, collections, `for` expressions and function calls.

use super::{MAX_DEPTH, Parser, body, bracket_balance, template};
use crate::syntax_kind::SyntaxKind::{self, *};

/// How long a postfix or operator chain may grow (each link nests the tree
/// one level deeper).
const MAX_CHAIN: u32 = 4 * MAX_DEPTH;

/// Entry point for a standalone expression: newlines are insignificant, as
/// if the expression were in parentheses.
pub(super) fn expr_root<const B: bool>(p: &mut Parser<'_, B>) {
    p.start_raw(EXPR_ROOT);
    p.set_newlines(false);
    if p.at_end() {
        p.error_expected("an expression");
    } else {
        expr(p, "an expression");
    }
    p.flush_trivia();
    p.bump_rest_as_error("unexpected text after the expression");
    p.finish();
}

/// Parses an expression, or reports that `what` was expected.
pub(super) fn expr<const B: bool>(p: &mut Parser<'_, B>, what: &str) -> bool {
    if expr_opt(p) {
        true
    } else {
        p.error_expected(what);
        false
    }
}

fn can_start_expr(kind: Option<SyntaxKind>) -> bool {
    matches!(
        kind,
        Some(
            NUMBER
                | IDENT
                | OPEN_QUOTE
                | HEREDOC_START
                | L_PAREN
                | L_BRACK
                | L_BRACE
                | MINUS
                | BANG
        )
    )
}

/// Parses an expression if one starts here; `false` (nothing consumed) if not.
pub(super) fn expr_opt<const B: bool>(p: &mut Parser<'_, B>) -> bool {
    if !can_start_expr(p.current()) {
        return false;
    }
    if lone_atom(p) {
        return true;
    }
    if p.too_deep() {
        return true;
    }
    p.enter();
    super::with_stack(p.depth, || {
        let cp = p.checkpoint();
        binary(p, 1);
        if p.at(QUESTION) {
            p.start_at(cp, CONDITIONAL);
            p.bump();
            expr(p, "an expression after `?`");
            if p.expect(COLON, "`:` in the conditional expression") {
                expr(p, "an expression after `:`");
            }
            p.finish();
        }
    });
    p.depth -= 1;
    true
}

/// A name, number or string without interpolations that no operator,
/// traversal or call continues (the key of `key = …`, most values of a
/// `.tfvars` file): the tree the whole chain of [`binary`], [`unary`],
/// [`postfix`] and [`primary`] would build for it, one `VARIABLE`,
/// `LITERAL` or `QUOTED_TEMPLATE` node, built without descending through
/// them. `false` (nothing consumed) for anything else.
#[inline]
fn lone_atom<const B: bool>(p: &mut Parser<'_, B>) -> bool {
    #[cfg(test)]
    if tests::NO_SHORTCUTS.get() {
        return false;
    }
    let current = p.current();
    // The atom's tokens: a string's are all significant (no trivia lies
    // between the quotes).
    let len = match current {
        Some(IDENT | NUMBER) => 1,
        Some(OPEN_QUOTE) => {
            let open = p.nth_index(0);
            match (p.raw(open + 1), p.raw(open + 2)) {
                (Some(CLOSE_QUOTE), _) => 2,
                (Some(TEMPLATE_LITERAL), Some(CLOSE_QUOTE)) => 3,
                _ => return false,
            }
        }
        _ => return false,
    };
    if p.depth + 1 >= MAX_DEPTH {
        return false;
    }
    if p.nth(len).is_some_and(continues_term) {
        return false;
    }
    if current == Some(OPEN_QUOTE) {
        template::quoted(p);
    } else {
        name_or_number(p);
    }
    true
}

/// Whether a token after a term continues the expression: an operator
/// ([`binary`]), `?` (the conditional), a traversal or index ([`postfix`]),
/// or a call's `(` or `::` ([`primary`]).
fn continues_term(kind: SyntaxKind) -> bool {
    precedence(kind) != 0 || matches!(kind, DOT | L_BRACK | L_PAREN | COLON2 | QUESTION)
}

/// The node of a number or of a name that is not a call: `LITERAL` for a
/// number (checked) and for `true`, `false` and `null`, else `VARIABLE`.
fn name_or_number<const B: bool>(p: &mut Parser<'_, B>) {
    let text = p.nth_text(0);
    let kind = if p.at(NUMBER) {
        if !valid_number(text) {
            let range = p.current_range();
            p.error_at(range, format!("invalid number literal `{text}`"));
        }
        LITERAL
    } else if matches!(text, "true" | "false" | "null") {
        LITERAL
    } else {
        VARIABLE
    };
    p.start(kind);
    p.bump();
    p.finish();
}

fn precedence(kind: SyntaxKind) -> u8 {
    match kind {
        PIPE2 => 1,
        AMP2 => 2,
        EQ2 | NEQ => 3,
        GT | GTEQ | LT | LTEQ => 4,
        PLUS | MINUS => 5,
        STAR | SLASH | PERCENT => 6,
        _ => 0,
    }
}

/// Binary operators with precedence at least `min`, left-associative.
fn binary<const B: bool>(p: &mut Parser<'_, B>, min: u8) {
    let cp = p.checkpoint();
    unary(p);
    let mut links = 0u32;
    while let Some(op) = p.current() {
        let prec = precedence(op);
        if prec == 0 || prec < min {
            break;
        }
        if p.depth + links >= MAX_CHAIN {
            let range = p.current_range();
            p.error_at(range, "expression is too long: too many chained operators");
            break;
        }
        p.start_at(cp, BINARY);
        p.bump();
        if can_start_expr(p.current()) {
            binary(p, prec + 1);
        } else {
            p.error_expected("an operand after the operator");
        }
        p.finish();
        links += 1;
    }
}

fn unary<const B: bool>(p: &mut Parser<'_, B>) {
    if matches!(p.current(), Some(MINUS | BANG)) {
        if p.too_deep() {
            return;
        }
        p.enter();
        p.start(UNARY);
        p.bump();
        if can_start_expr(p.current()) {
            super::with_stack(p.depth, || unary(p));
        } else {
            p.error_expected("an operand after the unary operator");
        }
        p.finish();
        p.depth -= 1;
    } else {
        postfix(p);
    }
}

/// A term and its `.attr`, `[index]`, `.0`, `.*` and `[*]` suffixes.
fn postfix<const B: bool>(p: &mut Parser<'_, B>) {
    let cp = p.checkpoint();
    if !primary(p) {
        return;
    }
    let mut links = 0u32;
    // Inside the traversal of an attribute-only splat (`x.*.a.0`), which
    // only `.name` and `.N` continue, as upstream parses it.
    let mut in_attribute_splat = false;
    loop {
        let kind = match p.current() {
            Some(DOT) => match p.nth(1) {
                Some(IDENT) => GET_ATTR,
                Some(NUMBER) => INDEX,
                Some(STAR) => SPLAT,
                _ => {
                    p.start_at(cp, GET_ATTR);
                    p.bump();
                    p.error_expected("an attribute name after `.`");
                    p.finish();
                    break;
                }
            },
            Some(L_BRACK) => {
                // As upstream, the `*` of a splat must follow `[` directly
                // (a newline there makes it an index).
                let star = p.nth(1) == Some(STAR) && p.nth(2) == Some(R_BRACK);
                if star { SPLAT } else { INDEX }
            }
            _ => break,
        };
        if p.depth + links >= MAX_CHAIN {
            let range = p.current_range();
            p.error_at(range, "expression is too long: too many chained traversals");
            break;
        }
        p.start_at(cp, kind);
        if p.at(DOT) {
            p.bump();
            if p.at(NUMBER) {
                legacy_index(p);
            } else if kind == SPLAT {
                if in_attribute_splat {
                    let range = p.current_range();
                    p.error_at(
                        range,
                        "nested splat: `.*` cannot continue the traversal of another `.*` splat; \
                         put the first one in parentheses or use `[*]`",
                    );
                }
                in_attribute_splat = true;
            }
            p.bump(); // name, number or `*`
        } else {
            in_attribute_splat = false;
            p.bump(); // `[`
            p.with_newlines(false, |p| {
                if kind == SPLAT {
                    p.bump(); // `*`
                } else {
                    expr(p, "an index expression");
                }
                if !p.eat(R_BRACK) {
                    p.error_expected("`]` to close the index");
                    if recover_in_list(p, &[R_BRACK]) {
                        p.bump();
                    }
                }
            });
        }
        p.finish();
        links += 1;
    }
}

/// Checks the number of a legacy index `.N` (the next token). As upstream,
/// a number with an exponent is a whole number, but one with a fraction is
/// the ambiguous `x.0.1` (a number `0.1`, not two indices).
fn legacy_index<const B: bool>(p: &mut Parser<'_, B>) {
    let text = p.nth_text(0);
    let message = if text.contains('.') {
        format!(
            "invalid legacy index `.{text}`: only a whole number may follow `.`; write `[{}]` instead",
            text.replace('.', "][")
        )
    } else if !valid_number(text) {
        format!("invalid number literal `{text}`")
    } else {
        return;
    };
    let range = p.current_range();
    p.error_at(range, message);
}

/// A term without suffixes. `false` if none starts here.
fn primary<const B: bool>(p: &mut Parser<'_, B>) -> bool {
    match p.current() {
        Some(NUMBER) => name_or_number(p),
        Some(IDENT) => {
            if matches!(p.nth(1), Some(L_PAREN | COLON2)) {
                // Even `true(…)` is a call, as upstream parses it.
                function_call(p);
            } else {
                name_or_number(p);
            }
        }
        Some(OPEN_QUOTE) => template::quoted(p),
        Some(HEREDOC_START) => template::heredoc(p),
        Some(L_PAREN) => {
            p.start(PAREN);
            p.bump();
            p.with_newlines(false, |p| {
                expr(p, "an expression after `(`");
                if !p.eat(R_PAREN) {
                    p.error_expected("`)`");
                    if recover_in_list(p, &[R_PAREN]) {
                        p.bump();
                    }
                }
            });
            p.finish();
        }
        Some(L_BRACK) => {
            if for_follows(p) {
                for_expr(p, false);
            } else {
                tuple(p);
            }
        }
        Some(L_BRACE) => {
            if for_follows(p) {
                for_expr(p, true);
            } else {
                object(p);
            }
        }
        _ => return false,
    }
    true
}

/// Whether the bracket or brace that is the next token opens a `for`
/// expression: `for` is the next token after it, newlines skipped (they
/// are insignificant inside brackets). Read off the raw tokens, without
/// switching the parser's newline mode there and back.
fn for_follows<const B: bool>(p: &mut Parser<'_, B>) -> bool {
    #[cfg(test)]
    if tests::NO_SHORTCUTS.get() {
        return p.with_newlines(false, |p| p.nth(1) == Some(IDENT) && p.nth_text(1) == "for");
    }
    let i = p.content_from(p.nth_index(0) + 1);
    p.raw(i) == Some(IDENT) && p.text_at(i) == "for"
}

/// Whether a number token is a valid literal. The spec says
/// `decimal+ ("." decimal+)? (expmark decimal+)?`; upstream parses the
/// token with Go's float syntax, which also accepts an empty fraction
/// (`1.e5`), so that is what decides validity. (The lexer never ends a
/// number token with `.`.)
fn valid_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > s
    };
    if !digits(&mut i) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        digits(&mut i);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// `name(args)` or `ns::name(args)`.
fn function_call<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(FUNCTION_CALL);
    p.bump(); // name
    while p.at(COLON2) {
        p.bump();
        if !p.eat(IDENT) {
            p.error_expected("a name after `::`");
            break;
        }
    }
    if p.at(L_PAREN) {
        arg_list(p);
    } else {
        p.error_expected("`(` to call the function");
    }
    p.finish();
}

fn arg_list<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(ARG_LIST);
    p.bump(); // `(`
    p.with_newlines(false, |p| {
        loop {
            if p.eat(R_PAREN) {
                break;
            }
            if p.at_end() {
                p.error_expected("`)` to close the argument list");
                break;
            }
            if !expr_opt(p) {
                p.error_expected("an argument or `)`");
                if !recover_in_list(p, &[COMMA, R_PAREN]) {
                    break;
                }
                p.eat(COMMA);
                continue;
            }
            if p.eat(COMMA) {
                continue;
            }
            if p.eat(ELLIPSIS) {
                if !p.eat(R_PAREN) {
                    p.error_expected("`)`: `...` may only follow the last argument");
                    if recover_in_list(p, &[R_PAREN]) {
                        p.bump();
                    }
                }
                break;
            }
            if p.at(R_PAREN) {
                continue;
            }
            p.error_expected("`,` or `)` after the argument");
            if !recover_in_list(p, &[COMMA, R_PAREN]) {
                break;
            }
            p.eat(COMMA);
        }
    });
    p.finish();
}

fn tuple<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(TUPLE);
    p.bump(); // `[`
    p.with_newlines(false, |p| {
        loop {
            if p.eat(R_BRACK) {
                break;
            }
            if p.at_end() {
                p.error_expected("`]` to close the tuple");
                break;
            }
            if !expr_opt(p) {
                p.error_expected("an element or `]`");
                if !recover_in_list(p, &[COMMA, R_BRACK]) {
                    break;
                }
                p.eat(COMMA);
                continue;
            }
            if p.eat(COMMA) || p.at(R_BRACK) {
                continue;
            }
            p.error_expected("`,` or `]` after the element");
            if !recover_in_list(p, &[COMMA, R_BRACK]) {
                break;
            }
            p.eat(COMMA);
        }
    });
    p.finish();
}

/// `{ key = value, … }`: items are separated by commas or newlines.
fn object<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(OBJECT);
    p.bump(); // `{`
    p.with_newlines(true, |p| {
        loop {
            // At the start of a line (after `{`'s newline or an item that
            // took its own), blank lines and detached comments go to the
            // object; comment lines directly above an item go to the item.
            if p.pos > 0 && p.raw(p.pos - 1) == Some(NEWLINE) {
                body::skip_detached_lines(p);
                if has_leading_comment_lines(p) {
                    if !object_item(p) {
                        break;
                    }
                    continue;
                }
            }
            if p.at(NEWLINE) {
                p.bump();
                continue;
            }
            if p.eat(R_BRACE) {
                break;
            }
            if p.at_end() {
                p.error_expected("`}` to close the object");
                break;
            }
            if !object_item(p) {
                break;
            }
        }
    });
    p.finish();
}

/// True when comment lines (with their newlines) come before the next
/// content token.
fn has_leading_comment_lines<const B: bool>(p: &Parser<'_, B>) -> bool {
    let mut i = p.pos;
    let mut newline = false;
    while let Some(kind) = p.raw(i) {
        match kind {
            WHITESPACE | COMMENT => {}
            NEWLINE => newline = true,
            R_BRACE => return false,
            _ => return newline,
        }
        i += 1;
    }
    false
}

/// One object item with its separator. `false` if the object cannot go on.
fn object_item<const B: bool>(p: &mut Parser<'_, B>) -> bool {
    let at_line_start = p.pos > 0 && p.raw(p.pos - 1) == Some(NEWLINE);
    if at_line_start {
        p.start_raw(OBJECT_ITEM);
        while matches!(p.raw(p.pos), Some(WHITESPACE | COMMENT | NEWLINE)) {
            p.bump_raw();
        }
    } else {
        p.start(OBJECT_ITEM);
    }
    let mut go_on = true;
    p.start(OBJECT_KEY);
    let has_key = expr_opt(p);
    p.finish();
    if !has_key {
        p.error_expected("an object key or `}`");
        go_on = recover_object_line(p);
    } else if matches!(p.current(), Some(EQ | COLON)) {
        p.bump();
        if !expr_opt(p) {
            p.error_expected("a value after the key's `=`");
            go_on = recover_object_line(p);
        }
    } else {
        p.error_expected("`=` or `:` after the object key");
        go_on = recover_object_line(p);
    }
    if go_on {
        match p.current() {
            Some(COMMA) => {
                p.bump();
                // A same-line comment and the newline after the comma.
                let mut i = p.pos;
                while matches!(p.raw(i), Some(WHITESPACE | COMMENT)) {
                    i += 1;
                }
                if p.raw(i) == Some(NEWLINE) {
                    p.bump();
                }
            }
            Some(NEWLINE) => p.bump(),
            Some(R_BRACE) | None => {}
            Some(_) => {
                p.error_expected("`,`, a newline or `}` after the object item");
                go_on = recover_object_line(p);
            }
        }
    }
    p.finish();
    go_on
}

/// Skips the rest of a broken object item up to a comma, newline or `}`
/// (keeping brackets balanced), placing the separator. `false` when the
/// object cannot continue (an unmatched closer or the end of the text).
fn recover_object_line<const B: bool>(p: &mut Parser<'_, B>) -> bool {
    let mut opened = false;
    let mut balance = 0i64;
    while let Some(kind) = p.current() {
        if balance <= 0 {
            match kind {
                COMMA | NEWLINE => {
                    if opened {
                        p.finish();
                    }
                    p.bump();
                    return true;
                }
                R_BRACE => {
                    if opened {
                        p.finish();
                    }
                    return true;
                }
                _ => {}
            }
        }
        let v = bracket_balance(kind);
        if v < 0 && balance <= 0 {
            break;
        }
        balance += v;
        if !opened {
            p.start(ERROR);
            opened = true;
        }
        // Inside brackets newlines are part of the junk.
        let saved = p.nl_significant;
        p.set_newlines(balance <= 0);
        p.bump();
        p.set_newlines(saved);
    }
    if opened {
        p.finish();
    }
    false
}

/// `[for k, v in coll: expr if cond]` or `{for k, v in coll: k => v... if cond}`.
fn for_expr<const B: bool>(p: &mut Parser<'_, B>, object: bool) {
    let closer = if object { R_BRACE } else { R_BRACK };
    let closer_text = if object { "`}`" } else { "`]`" };
    p.start(FOR_EXPR);
    p.bump(); // `[` or `{`
    p.with_newlines(false, |p| {
        p.start(FOR_INTRO);
        for_variables_and_collection(p);
        p.expect(COLON, "`:` after the collection");
        p.finish();
        expr(p, "an expression after `:`");
        if object {
            if p.expect(
                FAT_ARROW,
                "`=>` after the key expression of an object `for`",
            ) {
                expr(p, "a value expression after `=>`");
                p.eat(ELLIPSIS);
            }
        } else if p.at(FAT_ARROW) {
            let range = p.current_range();
            p.error_at(
                range,
                "`=>` is only allowed in an object `for` expression, written with `{ }`",
            );
            p.bump();
            expr(p, "a value expression after `=>`");
            p.eat(ELLIPSIS);
        }
        if p.at_keyword("if") {
            p.start(FOR_COND);
            p.bump();
            expr(p, "a condition after `if`");
            p.finish();
        }
        if !p.eat(closer) {
            p.error_expected(&format!("{closer_text} to close the `for` expression"));
            if recover_in_list(p, &[closer]) {
                p.bump();
            }
        }
    });
    p.finish();
}

/// `for k, v in coll` (without what ends it: `:` in an expression, `}` in
/// a template directive), shared by `for` expressions and directives.
pub(super) fn for_variables_and_collection<const B: bool>(p: &mut Parser<'_, B>) {
    p.bump(); // `for`
    if p.expect(IDENT, "a variable name after `for`") && p.eat(COMMA) {
        p.expect(IDENT, "a second variable name after `,`");
    }
    if p.at_keyword("in") {
        p.bump();
    } else {
        p.error_expected("`in` after the for variables");
    }
    expr(p, "the collection to iterate after `in`");
}

/// Inside brackets: wraps tokens up to one of `stops` (at bracket depth
/// zero) in an `ERROR` node. Returns `true` when it stopped at a stop token;
/// `false` at an unmatched closer, the end of the text, or a line that looks
/// like the next attribute or block (the brackets were never closed).
pub(super) fn recover_in_list<const B: bool>(p: &mut Parser<'_, B>, stops: &[SyntaxKind]) -> bool {
    let stopped = p.recover_balanced(|p, kind| stops.contains(&kind) || looks_like_next_item(p));
    stopped.is_some_and(|kind| stops.contains(&kind))
}

/// True if the next significant token starts a line that reads like a new
/// attribute (`name =`) or block (`name {`, `name "label"`).
fn looks_like_next_item<const B: bool>(p: &Parser<'_, B>) -> bool {
    let i = p.nth_index(0);
    if p.raw(i) != Some(IDENT) {
        return false;
    }
    // Is it the first thing on its line?
    let mut j = i;
    while j > 0 && matches!(p.raw(j - 1), Some(WHITESPACE)) {
        j -= 1;
    }
    if j > 0 && p.raw(j - 1) != Some(NEWLINE) {
        return false;
    }
    let mut k = i + 1;
    while matches!(p.raw(k), Some(WHITESPACE)) {
        k += 1;
    }
    matches!(p.raw(k), Some(EQ | L_BRACE | OPEN_QUOTE))
}

#[cfg(test)]
mod tests {
    use super::valid_number;
    use std::cell::Cell;

    thread_local! {
        /// Set: every expression goes down the whole chain, and a `for`
        /// after a bracket is looked for with newlines switched off, so
        /// that a test can compare the shortcuts' trees with the long way's.
        pub(super) static NO_SHORTCUTS: Cell<bool> = const { Cell::new(false) };
    }

    /// Runs `f` with the parser's shortcuts and without them.
    fn both_ways<T>(f: impl Fn() -> T) -> (T, T) {
        let shortcut = f();
        NO_SHORTCUTS.set(true);
        let chain = f();
        NO_SHORTCUTS.set(false);
        (shortcut, chain)
    }

    /// Parses `text` with the shortcuts and without them: the same tree and
    /// the same errors.
    fn assert_same_parse(text: &str, parse: impl Fn() -> crate::Parse) {
        let (shortcut, long) = both_ways(parse);
        assert_eq!(
            crate::debug_tree(&shortcut.syntax()),
            crate::debug_tree(&long.syntax()),
            "{text:?}"
        );
        assert_eq!(shortcut.errors(), long.errors(), "{text:?}");
    }

    /// Every atom the lone-atom shortcut takes, followed by every kind of
    /// token that may come next, in every place an expression goes (`for`
    /// expressions after comments and blank lines among them): the
    /// shortcuts build the long way's tree and report its errors.
    #[test]
    fn shortcuts_parse_as_the_long_way_does() {
        let atoms = [
            "name",
            "true",
            "null",
            "1",
            "1.5",
            "1.2.3",
            "1e",
            "\"\"",
            "\"text\"",
            "\"a\\nb\"",
            "\"bad \\q\"",
            "\"${x}\"",
            "\"open",
        ];
        let next = [
            "",
            " ",
            "\n",
            ",",
            " , ",
            "}",
            "]",
            ")",
            "=",
            ":",
            " = 2",
            ".a",
            ". a",
            ".0",
            ".*",
            "[0]",
            "[*]",
            "(1)",
            "::f(1)",
            " ? 1 : 2",
            "? 1 : 2",
            " + 1",
            "-1",
            " * 2",
            " == 3",
            " && x",
            " || x",
            " < 1",
            "!",
            " # c",
            " /* c */ ",
            " => v",
            "...",
            " for",
            " if",
            "\n.a",
            "\n[0]",
            "\n? 1 : 2",
        ];
        let places = [
            "a = {}\n",
            "a = { {} = 1 }\n",
            "a = { k = {} }\n",
            "a = {\n  {} = 1\n  k = {}\n}\n",
            "a = [{}, {}]\n",
            "a = [\n  {}\n]\n",
            "a = f({})\n",
            "a = f(x, {})\n",
            "a = c ? {} : {}\n",
            "a = ({})\n",
            "a = -{}\n",
            "a = \"${{}}\"\n",
            "a = [for x in {} : {}]\n",
            "a = {for k, v in {} : {} => {}}\n",
            "b \"l\" { a = {} }\n",
            "a = {} + {}\n",
            "a = [ # c\n for x in {} : x]\n",
            "a = [/* c */for x in {}: x]\n",
            "a = {\n\n  for k, v in {} : k => v\n}\n",
            "a = {\n  # c\n  for = {}\n}\n",
            "a = [\n  fora, {}\n]\n",
        ];
        let mut cases = 0;
        for atom in atoms {
            for follow in next {
                let expr = format!("{atom}{follow}");
                assert_same_parse(&expr, || crate::parse_expr(&expr));
                for place in places {
                    let text = place.replace("{}", &expr);
                    assert_same_parse(&text, || crate::parse(&text));
                    let (shortcut, long) = both_ways(|| crate::syntax_errors(&text));
                    assert_eq!(shortcut, long, "{text:?}");
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, places.len() * atoms.len() * next.len());
    }

    /// Pieces of HCL that the shortcuts look at (atoms, what may follow
    /// them, brackets that may open a `for`) and the places around them.
    const PIECES: &[&str] = &[
        "a",
        "b.c",
        "true",
        "null",
        "1",
        "2.5",
        "1.2.3",
        "\"s\"",
        "\"\"",
        "\"${x}\"",
        "\"open",
        "x = ",
        "k: ",
        " ",
        "\n",
        ",",
        "=",
        ":",
        "?",
        "+",
        "-",
        "!",
        "&&",
        "==",
        ".",
        ".*",
        "[*]",
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        "::",
        "=>",
        "...",
        "for ",
        " in ",
        " if ",
        "# c\n",
        "/* c */",
        "${",
        "\"",
        "<<EOT\n",
        "EOT\n",
        "blk \"l\" {\n",
    ];

    proptest::proptest! {
        // `PROPTEST_CASES` raises the count for a deeper search.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
        ))]

        /// Any text made of those pieces, as a file and as an expression:
        /// the shortcuts change no tree and no error.
        #[test]
        fn shortcuts_change_nothing_on_any_text(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..40)
        ) {
            let text = pieces.concat();
            assert_same_parse(&text, || crate::parse(&text));
            assert_same_parse(&text, || crate::parse_expr(&text));
            let (shortcut, long) = both_ways(|| crate::syntax_errors(&text));
            proptest::prop_assert_eq!(shortcut, long, "{:?}", text);
        }
    }

    #[test]
    fn numbers() {
        for ok in ["0", "12", "1.5", "1e3", "1.5E-3", "2e+10", "1.e5", "0.e-3"] {
            assert!(valid_number(ok), "{ok}");
        }
        for bad in ["1.2.3", "1..2", "1e5.5", "1.e5.5"] {
            assert!(!valid_number(bad), "{bad}");
        }
    }
}
