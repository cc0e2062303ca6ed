use super::{game_at, games, Trees};
use crate::codes;
use crate::diagnostic::Diagnostic;
use tree_sitter::Node;

/// Diagnostics for everything the grammar could not read as valid PBN
/// syntax. Each ERROR node yields one diagnostic (nested ERROR nodes are not
/// reported twice); MISSING nodes name the token the parser inserted.
pub fn syntax_diagnostics<T: Trees + ?Sized>(trees: &T, text: &str) -> Vec<Diagnostic> {
    let (chunks, _) = games(trees, text);
    let mut out = Vec::new();
    for tree in trees.trees() {
        visit(tree.root_node(), text, &mut out);
    }
    for d in &mut out {
        d.game = game_at(&chunks, d.range.start);
    }
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out
}

/// The syntax diagnostics of some top-level nodes (unsorted, no game set).
/// Not for the children of an ERROR root: [`syntax_diagnostics`] reports
/// such a root once, as a whole ([`root_error`]), and callers leave its
/// children out.
pub fn nodes_diagnostics(nodes: &[Node<'_>], text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for n in nodes {
        visit(*n, text, &mut out);
    }
    out
}

/// The diagnostic of a tree whose root is an ERROR node (tree-sitter could
/// not read the piece as a document at all): [`syntax_diagnostics`] reports
/// such a root once and does not look inside it.
pub fn root_error(tree: &tree_sitter::Tree, text: &str) -> Option<Diagnostic> {
    let root = tree.root_node();
    root.is_error().then(|| error_diagnostic(root, text))
}

fn visit(node: Node<'_>, text: &str, out: &mut Vec<Diagnostic>) {
    if node.is_missing() {
        // After a string without its closing quote, the missing `]` is a
        // consequence, not a second problem.
        if node
            .prev_sibling()
            .is_some_and(|p| p.kind() == "unterminated_string")
        {
            return;
        }
        let what = node.kind();
        let at = node.start_byte();
        out.push(Diagnostic::new(
            &codes::syntax::MISSING_TOKEN,
            at..at,
            format!("missing `{what}` (§3.3: a tag pair is `[`, name, string, `]`)"),
        ));
        return;
    }
    if node.is_error() {
        out.push(error_diagnostic(node, text));
        return;
    }
    match node.kind() {
        "unterminated_string" => {
            out.push(Diagnostic::new(
                &codes::syntax::UNTERMINATED_STRING,
                node.byte_range(),
                "string has no closing quote before the end of the line (§3.2)",
            ));
        }
        "unterminated_comment" => {
            // Closed where it is read to end: the file then says what it is
            // read as, and a `}` a later fix writes (`{o}`) cannot close this
            // comment instead, making the games between part of it.
            let (start, end) = (node.start_byte(), node.end_byte());
            let fix = crate::diagnostic::Fix::replace(
                "Close the comment at the end of its last line",
                end..end,
                "}".to_owned(),
                crate::diagnostic::Applicability::Safe,
            );
            out.push(
                Diagnostic::new(
                    &codes::syntax::UNTERMINATED_COMMENT,
                    start..start + 1,
                    "`{` comment has no closing `}` before the next semi-empty line (§3.8)",
                )
                .with_fix(Some(fix)),
            );
        }
        "unquoted_value" => {
            let raw = &text[node.byte_range()];
            // Safe when the text up to the tag's `]` on the line is the value
            // (`[Event Random Deal #]`); else unsafe: where the writer meant
            // the value to end is a guess.
            let fix = match value_to_bracket(node, text) {
                Some(whole) => crate::diagnostic::Fix::replace(
                    format!("Quote the value: \"{}\"", &text[whole.clone()]),
                    whole.clone(),
                    format!("\"{}\"", crate::spec::escape(&text[whole])),
                    crate::diagnostic::Applicability::Safe,
                ),
                None => crate::diagnostic::Fix::replace(
                    format!("Quote the value: \"{raw}\""),
                    node.byte_range(),
                    format!("\"{}\"", crate::spec::escape(raw)),
                    crate::diagnostic::Applicability::Unsafe,
                ),
            };
            out.push(
                Diagnostic::new(
                    &codes::syntax::UNQUOTED_TAG_VALUE,
                    node.byte_range(),
                    format!("tag value `{raw}` is not a quoted string (§3.3)"),
                )
                .with_fix(Some(fix)),
            );
        }
        "tag_pair" if node.child_by_field_name("value").is_none() => {
            let name = node
                .child_by_field_name("name")
                .map(|n| &text[n.byte_range()])
                .unwrap_or("");
            out.push(Diagnostic::new(
                &codes::syntax::MISSING_TAG_VALUE,
                node.byte_range(),
                format!("tag `{name}` has no value; write `\"\"` or `\"?\"` (§3.3, §3.4)"),
            ));
        }
        _ => {}
    }
    if node.child_count() > 0 && (node.has_error() || is_container(node.kind())) {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            visit(child, text, out);
        }
    }
}

/// The text from an unquoted value to the `]` of its tag pair, when that
/// is the rest of the tag: the `]` on the same line ends the tag pair, and
/// nothing between is a string, a comment or another bracket.
fn value_to_bracket(node: Node<'_>, text: &str) -> Option<std::ops::Range<usize>> {
    let pair = node.parent().filter(|p| p.kind() == "tag_pair")?;
    let start = node.start_byte();
    let rest = &text[start..];
    let close = rest
        .find([']', '\n', '\r'])
        .filter(|&i| rest.as_bytes()[i] == b']')?;
    let inner = rest[..close].trim_end_matches([' ', '\t']);
    let plain = !inner.contains(['"', '[', '{', '}', ';', '\\']);
    (plain && pair.end_byte() == start + close + 1).then(|| start..start + inner.len())
}

/// A line of free text standing where a tag or a game should be
/// (`Generated 16 hands`): the whole line as a `{…}` comment (§3.8), when
/// the error is that line and the line holds nothing PBN reads (no
/// bracket, string, comment, `;` or `%`).
fn stray_line_fix(range: &std::ops::Range<usize>, text: &str) -> Option<crate::diagnostic::Fix> {
    let b = text.as_bytes();
    let mut start = range.start;
    while start > 0 && matches!(b[start - 1], b' ' | b'\t') {
        start -= 1;
    }
    if start > 0 && !matches!(b[start - 1], b'\n' | b'\r') {
        return None;
    }
    let end = text[range.start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| range.start + i);
    let line = text[range.start..end].trim_end_matches([' ', '\t']);
    if line.is_empty() || line.contains(['[', ']', '"', '{', '}', ';', '%', '\\']) {
        return None;
    }
    Some(crate::diagnostic::Fix::replace(
        format!("Keep `{line}` as a comment"),
        range.start..range.start + line.len(),
        format!("{{{line}}}"),
        crate::diagnostic::Applicability::Safe,
    ))
}

fn is_container(kind: &str) -> bool {
    matches!(
        kind,
        "document"
            | "game"
            | "auction_section"
            | "play_section"
            | "supplemental_section"
            | "tag_pair"
    )
}

fn error_diagnostic(node: Node<'_>, text: &str) -> Diagnostic {
    let range = node.byte_range();
    let snippet = text[range.clone()].trim();
    let first_line = snippet.lines().next().unwrap_or("");
    let shown: String = if first_line.chars().count() > 40 {
        first_line.chars().take(40).collect::<String>() + "…"
    } else {
        first_line.to_owned()
    };
    let message = if snippet == "}" {
        "stray `}`: brace comments do not nest, the comment already ended at an earlier `}` (§3.8)"
            .to_owned()
    } else if snippet.starts_with('%') {
        "`%` starts an escape line only in the first column (§2.4)".to_owned()
    } else if snippet.is_empty() {
        "unexpected text (§3.2)".to_owned()
    } else {
        let parent = node.parent().map(|p| p.kind()).unwrap_or("document");
        let place = match parent {
            "auction_section" => " in the auction section (§3.5: calls and annotations only; free text goes in a comment)",
            "play_section" => " in the play section (§3.6: cards and annotations only; free text goes in a comment)",
            "tag_pair" => " inside a tag pair (§3.3)",
            _ => " (§3.2: not a PBN token here; free text goes in a `{…}` comment)",
        };
        format!("unexpected `{shown}`{place}")
    };
    let stray = !snippet.is_empty()
        && !matches!(
            node.parent().map(|p| p.kind()),
            Some("auction_section" | "play_section" | "tag_pair")
        );
    // Point at the first line of the error only: an ERROR node can span lines.
    let end = text[range.clone()]
        .find(['\n', '\r'])
        .map(|i| range.start + i)
        .unwrap_or(range.end)
        .max(range.start + usize::from(range.end > range.start));
    // Only inside a game with tags: a line standing alone would leave no
    // game once it is a comment (and `pbn fmt` keeps the games it has).
    let in_game = node.parent().is_some_and(|p| {
        let mut c = p.walk();
        let has_tag = p.children(&mut c).any(|n| n.kind() == "tag_pair");
        has_tag
    });
    let fix = (stray && in_game)
        .then(|| stray_line_fix(&range, text))
        .flatten();
    Diagnostic::new(
        &codes::syntax::SYNTAX_ERROR,
        range.start..end.min(range.end),
        message,
    )
    .with_fix(fix)
}

/// The syntax diagnostics of a tree without ERROR/MISSING nodes, walking
/// only the games in `broken` (those with a lenient error leaf: an
/// unterminated string or comment, a value that is missing or unquoted),
/// and the loose unterminated comments when `loose` is set.
pub fn syntax_diagnostics_in<T: Trees + ?Sized>(
    trees: &T,
    text: &str,
    broken: &[std::ops::Range<usize>],
    loose: bool,
) -> Vec<Diagnostic> {
    if broken.is_empty() && !loose {
        return Vec::new();
    }
    let (chunks, _) = games(trees, text);
    let mut out = Vec::new();
    for child in super::top_nodes(trees) {
        let r = child.byte_range();
        let in_broken = broken.iter().any(|b| b.start <= r.start && r.end <= b.end);
        if in_broken || child.kind() == "unterminated_comment" {
            visit(child, text, &mut out);
        }
    }
    for d in &mut out {
        d.game = game_at(&chunks, d.range.start);
    }
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    fn codes_of(text: &str) -> Vec<(&'static str, Option<usize>)> {
        let tree = parse(text);
        syntax_diagnostics(&tree, text)
            .into_iter()
            .map(|d| (d.code.code, d.game))
            .collect()
    }

    #[test]
    fn clean_file_has_no_syntax_diagnostics() {
        assert!(codes_of("[Event \"x\"]\n[Auction \"N\"]\n1C AP\n").is_empty());
    }

    #[test]
    fn each_lenient_leaf_is_reported() {
        assert_eq!(codes_of("[Event]\n"), vec![("PBN0005", Some(0))]);
        assert_eq!(codes_of("[Event x]\n"), vec![("PBN0006", Some(0))]);
        assert_eq!(codes_of("[Event \"x]\n"), vec![("PBN0003", Some(0))]);
        assert_eq!(
            codes_of("[Event \"x\"\n[Site \"y\"]\n"),
            vec![("PBN0002", Some(0))]
        );
        assert_eq!(
            codes_of("[Event \"a\"]\n\n{ x\n\n[Event \"b\"]\n"),
            vec![("PBN0004", None)]
        );
        assert_eq!(
            codes_of("[Event \"a\"] }\n\n[Event \"b\"]\n"),
            vec![("PBN0001", Some(0))]
        );
    }

    #[test]
    fn errors_are_attributed_to_their_game() {
        let text = "[Event \"a\"]\n\n[Event \"b\"]\n[Auction \"N\"]\n1C free text .\n";
        let got = codes_of(text);
        assert!(!got.is_empty());
        assert!(
            got.iter().all(|(c, g)| *c == "PBN0001" && *g == Some(1)),
            "{got:?}"
        );
    }
}
