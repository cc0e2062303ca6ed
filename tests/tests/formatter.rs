//! The formatter's guarantees on every corpus file and on generated files:
//! idempotent, meaning-preserving (`pbn dump` equal), every comment printed,
//! games with syntax errors printed verbatim. What `pbn fmt` writes (the
//! safe fixes, then the layout: `format_fixed`) dumps equal too, game by
//! game, games with errors included ([`fmt_keeps_the_dump`]); a game it
//! cannot print without a change of meaning it keeps as written (and `pbn
//! fmt` says so), which dumps equal by itself.

use pbn_core::format::{format, FormatOptions};
use pbn_core::text::decode;
use pbn_tests::corpus::{corpus_dir, corpus_files};
use std::collections::BTreeMap;

fn dump(text: &str) -> serde_json::Value {
    let tree = pbn_core::syntax::parse_pieces(text);
    let doc = pbn_core::model::lower(&tree, text);
    pbn_core::model::dump::dump(&doc, text)
}

fn comments(text: &str) -> BTreeMap<String, usize> {
    let tree = pbn_core::syntax::parse_pieces(text);
    pbn_tests::fuzz::comment_texts(pbn_core::syntax::Trees::trees(&tree), text)
}

/// `dump(fmt(x)) == dump(x)` game by game, `fmt` being `pbn fmt`'s
/// `format_fixed`: each game that differs is a failure, with the first
/// key it differs in.
fn fmt_keeps_the_dump(name: &str, source: &pbn_core::text::SourceText, failures: &mut Vec<String>) {
    let fixed = pbn_core::format::format_fixed(source, &FormatOptions::default());
    let (a, b) = (dump(&source.text), dump(&fixed.text));
    let (ga, gb) = (
        a["games"].as_array().unwrap(),
        b["games"].as_array().unwrap(),
    );
    if ga.len() != gb.len() {
        failures.push(format!(
            "{name}: `pbn fmt` makes {} games of {}",
            gb.len(),
            ga.len()
        ));
        return;
    }
    let differing: Vec<String> = ga
        .iter()
        .zip(gb)
        .enumerate()
        .filter(|(_, (x, y))| {
            // The safe fixes may recompute scoring figures, nothing else.
            x != y
                && !syntax_repaired(x, y)
                && pbn_tests::fuzz::without_figures(x) != pbn_tests::fuzz::without_figures(y)
        })
        .map(|(i, (x, y))| {
            let keys: BTreeMap<&String, ()> = x
                .as_object()
                .unwrap()
                .keys()
                .chain(y.as_object().unwrap().keys())
                .filter(|k| x.get(*k) != y.get(*k))
                .map(|k| (k, ()))
                .collect();
            format!("game {} ({:?})", i + 1, keys.keys().collect::<Vec<_>>())
        })
        .collect();
    if !differing.is_empty() {
        failures.push(format!(
            "{name}: `pbn fmt` changes the dump of {} game(s): {}",
            differing.len(),
            differing
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
}

/// A game read with a syntax error (`[Event Random Deal #]`) that the
/// fixes repaired: its reading may only grow. Every other part dumps the
/// same, and every tag read before is still there.
fn syntax_repaired(x: &serde_json::Value, y: &serde_json::Value) -> bool {
    let (Some(x), Some(y)) = (x.as_object(), y.as_object()) else {
        return false;
    };
    let other = |k: &String| k != "syntax_error" && k != "tags";
    let tag_names = |o: &serde_json::Map<String, serde_json::Value>| {
        o.get("tags")
            .and_then(|t| t.as_object())
            .map(|t| t.keys().cloned().collect::<std::collections::BTreeSet<_>>())
            .unwrap_or_default()
    };
    x.get("syntax_error") == Some(&serde_json::Value::Bool(true))
        && y.get("syntax_error").is_none()
        && x.keys()
            .chain(y.keys())
            .filter(|k| other(k))
            .all(|k| x.get(k) == y.get(k))
        && tag_names(x).is_subset(&tag_names(y))
}

fn check_one(name: &str, bytes: &[u8], failures: &mut Vec<String>) {
    let source = decode(bytes);
    fmt_keeps_the_dump(name, &source, failures);
    let opts = FormatOptions::default();
    let once = format(&source, &opts);
    let twice = format(&decode(once.text.as_bytes()), &opts);
    if once.text != twice.text {
        let line = once
            .text
            .lines()
            .zip(twice.text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        failures.push(format!(
            "{name}: not idempotent (first difference at line {})",
            line + 1
        ));
    }
    if dump(&source.text)["games"] != dump(&once.text)["games"] {
        let a = dump(&source.text);
        let b = dump(&once.text);
        let g = a["games"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["games"].as_array().unwrap())
            .position(|(x, y)| x != y);
        failures.push(format!(
            "{name}: dump differs after formatting (game {:?}, {} vs {} games)",
            g.map(|g| g + 1),
            a["games"].as_array().unwrap().len(),
            b["games"].as_array().unwrap().len()
        ));
    }
    // The same comments, and those that keep what export format cannot
    // hold (a repeated tag, a stray `*`: tests/tests/fmt_keeps_data.rs).
    let mut added = comments(&once.text);
    for (c, n) in comments(&source.text) {
        match added.get_mut(&c) {
            Some(k) if *k >= n => *k -= n,
            _ => failures.push(format!("{name}: comment {c} lost")),
        }
    }
    if let Some((c, _)) = added
        .iter()
        .find(|(c, k)| **k > 0 && !pbn_tests::fuzz::is_kept_data_comment(c))
    {
        failures.push(format!("{name}: comment {c} added by formatting"));
    }
}

#[test]
fn corpus_files_format_idempotently_and_keep_meaning_and_comments() {
    let Some(dir) = corpus_dir() else { return };
    let mut failures = Vec::new();
    for rel in corpus_files(&dir) {
        let bytes = std::fs::read(dir.join(&rel)).unwrap();
        check_one(&rel.display().to_string(), &bytes, &mut failures);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn generated_files_format_idempotently_and_keep_meaning() {
    let mut failures = Vec::new();
    for seed in 0..4 {
        let text = pbn_tests::gen::generate(200, seed, &pbn_tests::gen::GenOptions::default());
        check_one(
            &format!("generated seed {seed}"),
            text.as_bytes(),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn formatted_output_of_error_free_files_passes_the_export_check() {
    use pbn_core::checker::{check_text, CheckOptions};
    use pbn_core::codes::Category;
    use pbn_core::diagnostic::Severity;
    let Some(dir) = corpus_dir() else { return };
    let opts = FormatOptions {
        eol: pbn_core::format::EolOption::Crlf,
        ..Default::default()
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for rel in corpus_files(&dir) {
        let source = decode(&std::fs::read(dir.join(&rel)).unwrap());
        let before = check_text(
            &source,
            &CheckOptions {
                export: false,
                ..Default::default()
            },
        );
        if before
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            continue;
        }
        checked += 1;
        // What `pbn fmt` writes: the export forms are the rules' safe fixes.
        let out = pbn_core::format::format_fixed(&source, &opts);
        // In the encoding `pbn fmt` writes (ISO 8859-1 where it fits, §2.2).
        let (bytes, _) =
            pbn_core::text::encode(&out.text, pbn_core::rules::write_encoding(&source));
        let after = check_text(
            &decode(&bytes),
            &CheckOptions {
                export: true,
                ..Default::default()
            },
        );
        for d in after
            .diagnostics
            .iter()
            .filter(|d| d.code.category == Category::Export || d.severity == Severity::Error)
        {
            failures.push(format!("{}: {} {}", rel.display(), d.code.code, d.message));
        }
    }
    assert!(checked >= 20, "only {checked} error-free corpus files");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Turns export-format text into equivalent import-format text: what a
/// person typing PBN by hand would write.
fn to_import_format(text: &str, seed: u64) -> String {
    let mut rng = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = String::new();
    for game in text.split("\n\n") {
        let mut tags: Vec<String> = Vec::new();
        let mut rest: Vec<String> = Vec::new();
        let mut in_section = false;
        for line in game.lines() {
            if line.starts_with('[')
                && !in_section
                && !line.starts_with("[Auction")
                && !line.starts_with("[Play")
            {
                tags.push(line.to_owned());
            } else {
                in_section = true;
                rest.push(line.to_owned());
            }
        }
        // Tags in any order (§3.4: the order is unimportant in import format).
        for i in (1..tags.len()).rev() {
            let j = (next() as usize) % (i + 1);
            tags.swap(i, j);
        }
        for t in &mut tags {
            if t == "[Vulnerable \"None\"]" {
                *t = "[Vulnerable \"love\"]".into();
            } else if t == "[Vulnerable \"All\"]" {
                *t = "[Vulnerable \"Both\"]".into();
            }
            if next() % 3 == 0 {
                *t = t.replacen(' ', "   ", 1).replacen('[', "[ ", 1);
            }
        }
        out.push_str(&tags.join(if next() % 2 == 0 { "\n" } else { " " }));
        out.push('\n');
        let mut in_calls_or_cards = false;
        for line in rest {
            if line.starts_with('[') {
                in_calls_or_cards = line.starts_with("[Auction")
                    || line.starts_with("[Play")
                    || (in_calls_or_cards && line.starts_with("[Note"));
            }
            if line.starts_with('[')
                || line.starts_with('{')
                || line.starts_with('%')
                || !in_calls_or_cards
            {
                out.push_str(&line);
            } else {
                // Lower case (§3.11), suffixes for NAGs (§3.5.3), extra spaces.
                let mut words = Vec::new();
                for w in line.split(' ') {
                    let w = match w {
                        "$1" if next() % 2 == 0 => "!".to_owned(),
                        "$3" if next() % 2 == 0 => "!!".to_owned(),
                        "$7" if next() % 2 == 0 => "!".to_owned(),
                        w if w.len() == 2 && next() % 4 == 0 && !w.starts_with(['$', '=']) => {
                            w.to_ascii_lowercase()
                        }
                        "Pass" if next() % 3 == 0 => "pass".to_owned(),
                        w => w.to_owned(),
                    };
                    words.push(w);
                }
                out.push_str(&words.join(if next() % 4 == 0 { "   " } else { " " }));
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[test]
fn import_format_variants_format_back_to_the_same_meaning() {
    let mut failures = Vec::new();
    for seed in 0..6 {
        let export = pbn_tests::gen::generate(60, seed, &pbn_tests::gen::GenOptions::default());
        let import = to_import_format(&export, seed);
        assert_eq!(
            dump(&export)["games"],
            dump(&import)["games"],
            "the import-format variant must mean the same (seed {seed}); the mutator is wrong"
        );
        check_one(
            &format!("import variant seed {seed}"),
            import.as_bytes(),
            &mut failures,
        );
        let formatted = format(&decode(import.as_bytes()), &FormatOptions::default()).text;
        assert!(formatted.len() > export.len() / 2);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// `pbn fmt` keeps the dump of our own fixtures, game by game: among them
/// `fmt/star_after_call.pbn`, BEN's `4C*`, where commenting the `*` out
/// would give the auction a contract.
#[test]
fn fmt_keeps_the_dump_of_our_fixtures() {
    let mut failures = Vec::new();
    let sources = pbn_tests::corpus::own_sources();
    assert!(sources
        .iter()
        .any(|(name, _)| name.contains("star_after_call")));
    for (name, source) in sources {
        fmt_keeps_the_dump(&name, &source, &mut failures);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
