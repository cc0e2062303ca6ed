//! `pbn fmt` never loses data silently: every tag value, comment and
//! annotation of the input is in the output, as a tag or inside a comment
//! (a repeated tag's ignored value, a `*` before the end of a section),
//! over the corpus, generated files and our own fixtures.

use pbn_core::format::{format, FormatOptions};
use pbn_core::model::{self, AnnotationKind, Document, Entry, Game, TagRole};
use pbn_core::text::decode;
use pbn_tests::corpus::{corpus_dir, corpus_sources, own_sources};
use std::collections::BTreeMap;

fn lower(text: &str) -> Document {
    model::lower(&pbn_core::syntax::parse_pieces(text), text)
}

/// The tags whose value the formatter writes in its export form (§3.4):
/// there the output's value may differ from the input's.
const NORMALIZED: [&str; 8] = [
    "Dealer",
    "Declarer",
    "Vulnerable",
    "Contract",
    "Deal",
    "Result",
    "Auction",
    "Play",
];

/// A value's letters and digits, lower case: what a repair of its spelling
/// (`2023-07-28` → `2023.07.28`) keeps.
fn letters(v: &str) -> String {
    v.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Counts the annotations of one section into `out`, each in a class that
/// formatting keeps (a suffix becomes a NAG, §3.7, so both count as "a
/// NAG"); returns its number of `*` (`is_star`).
fn annotations<T>(
    text: &str,
    entries: &[Entry<T>],
    is_star: impl Fn(&T) -> bool,
    out: &mut BTreeMap<String, usize>,
) -> usize {
    for e in entries {
        for a in e.pre().iter().chain(e.post()) {
            let key = match a.kind {
                AnnotationKind::Suffix(_) => "nag".to_owned(),
                AnnotationKind::Nag(Some(n)) => format!("nag ${n}"),
                _ => text[a.range.clone()].to_owned(),
            };
            *out.entry(key).or_default() += 1;
            if matches!(a.kind, AnnotationKind::Nag(Some(_))) {
                *out.entry("nag".to_owned()).or_default() += 1;
            }
        }
    }
    entries.iter().filter(|e| is_star(&e.token)).count()
}

/// `(annotations, terminators)` of a game's auction and play.
fn sections(text: &str, g: &Game) -> (BTreeMap<String, usize>, usize) {
    let mut notes = BTreeMap::new();
    let mut stars = 0;
    if let Some(a) = &g.auction {
        let star = |t: &model::CallToken| *t == model::CallToken::Terminator;
        stars += annotations(text, &a.entries, star, &mut notes);
    }
    if let Some(p) = &g.play {
        let star = |t: &model::CardToken| *t == model::CardToken::Terminator;
        stars += annotations(text, &p.entries, star, &mut notes);
    }
    (notes, stars)
}

/// What of `input` is missing from `output` (its formatted version), one
/// line each; empty when nothing is.
fn missing(input: &str, output: &str) -> Vec<String> {
    let (a, b) = (lower(input), lower(output));
    if a.games.len() != b.games.len() {
        return vec![format!(
            "{} games in, {} games out",
            a.games.len(),
            b.games.len()
        )];
    }
    let mut lost = Vec::new();
    for (gi, (g, h)) in a.games.iter().zip(&b.games).enumerate() {
        let n = gi + 1;
        let comments: Vec<&str> = h
            .comments
            .iter()
            .map(|c| output[c.range.clone()].trim_end())
            .collect();
        let in_comment = |s: &str| comments.iter().any(|c| c.contains(s));
        // Tags: the first of a name is a tag of the output with the same
        // value (or its export form; a name in another case is written in
        // the standard's, a safe fix); a repeated one (§3.4: ignored) is
        // inside a comment, unless it repeats the value in effect (a safe
        // fix drops such an exact repeat). Note tags are never repeats.
        let mut seen = std::collections::HashMap::new();
        for t in &g.tags {
            let raw = t.value.as_ref().map_or("", |v| v.raw.as_str());
            let note =
                t.name == "Note" || matches!(t.role, TagRole::AuctionNote | TagRole::PlayNote);
            let first = seen.get(t.name.as_str()).copied();
            if first.is_none() {
                seen.insert(t.name.as_str(), raw);
            }
            if note || first.is_none() {
                let kept = h.tags.iter().any(|u| {
                    u.name.eq_ignore_ascii_case(&t.name) && {
                        let v = u.value.as_ref().map_or("", |v| v.raw.as_str());
                        v == raw
                            || (!note && NORMALIZED.contains(&t.name.as_str()))
                            || letters(v) == letters(raw)
                    }
                });
                if !kept {
                    lost.push(format!("game {n}: tag [{} \"{raw}\"]", t.name));
                }
            } else if first != Some(raw) && !in_comment(&input[t.range.clone()]) {
                lost.push(format!(
                    "game {n}: repeated tag {} not kept as a comment",
                    &input[t.range.clone()]
                ));
            }
        }
        // Comments: each input comment is an output comment, word for word
        // (a line over 255 characters is wrapped at its spaces, §2.3).
        let words = |c: &str| c.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut left: BTreeMap<String, usize> = BTreeMap::new();
        for c in &comments {
            *left.entry(words(c)).or_default() += 1;
        }
        for c in &g.comments {
            let c = input[c.range.clone()].trim_end();
            match left.get_mut(&words(c)) {
                Some(k) if *k > 0 => *k -= 1,
                _ => lost.push(format!("game {n}: comment {c}")),
            }
        }
        // Annotations, and every `*` as `*` or `;*`.
        let (notes_in, stars_in) = sections(input, g);
        let (notes_out, stars_out) = sections(output, h);
        for (k, &c) in &notes_in {
            if notes_out.get(k).copied().unwrap_or(0) < c {
                lost.push(format!("game {n}: annotation {k} ({c} in the input)"));
            }
        }
        let starred = comments.iter().filter(|c| **c == ";*").count();
        if stars_out + starred < stars_in {
            lost.push(format!(
                "game {n}: {stars_in} `*` in, {stars_out} + {starred} out"
            ));
        }
    }
    lost
}

fn check(name: &str, text: &str, failures: &mut Vec<String>) {
    let out = format(&decode(text.as_bytes()), &FormatOptions::default());
    for l in missing(text, &out.text) {
        failures.push(format!("{name}: {l}"));
    }
}

#[test]
fn nothing_of_the_corpus_is_lost_by_fmt() {
    let Some(dir) = corpus_dir() else { return };
    let mut failures = Vec::new();
    for (name, source) in corpus_sources(&dir) {
        check(&name, &source.text, &mut failures);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn nothing_of_generated_files_or_fixtures_is_lost_by_fmt() {
    let mut failures = Vec::new();
    for seed in 0..4 {
        let text = pbn_tests::gen::generate(100, seed, &pbn_tests::gen::GenOptions::default());
        check(&format!("generated seed {seed}"), &text, &mut failures);
    }
    for (name, source) in own_sources() {
        check(&name, &source.text, &mut failures);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

const KEPT: &str = "[Event \"x\"]\n[Room \"Open\"]\n[Room \"IMP\"]\n{after IMP}\n[Dealer \"N\"]\n[Auction \"N\"]\n1S $3 2H ! Pass\n* *\n";

/// A `*` before more calls ends the auction (§3.5): as a comment it would
/// let them count, so the game is kept as written, and says so.
#[test]
fn a_star_before_more_calls_keeps_the_game_as_written() {
    let text = "[Event \"x\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1S $3 * 2H ! Pass\nPass Pass\n";
    let out = pbn_core::format::format_fixed(&decode(text.as_bytes()), &FormatOptions::default());
    assert!(out.text.contains("1S $3 * 2H"), "{}", out.text);
    assert_eq!(out.unprintable_games, vec![0]);
    assert!(out.commented_games.is_empty());
}

#[test]
fn a_repeated_tag_and_a_stray_star_are_kept_as_comments() {
    // What `pbn fmt` writes: the suffix `!` becomes `$1` by PBN1007's fix.
    let out = pbn_core::format::format_fixed(&decode(KEPT.as_bytes()), &FormatOptions::default());
    assert!(
        out.text
            .contains("[Room \"Open\"]\n;[Room \"IMP\"]\n{after IMP}\n"),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("1S $3 2H $1 Pass ;*\n*\n"),
        "{}",
        out.text
    );
    assert_eq!(out.commented_games, vec![0]);
    assert_eq!(missing(KEPT, &out.text), Vec::<String>::new());
}

/// The check above can fail: each kind of loss is found.
#[test]
fn a_lost_tag_comment_annotation_or_star_is_reported() {
    let out = format(&decode(KEPT.as_bytes()), &FormatOptions::default()).text;
    for (what, from, to) in [
        ("repeated tag", ";[Room \"IMP\"]\n", ""),
        ("tag [Event", "[Event \"x\"]\n", ""),
        ("comment {after IMP}", "{after IMP}\n", ""),
        ("annotation nag $3", "$3 ", ""),
        ("`*`", ";*", ""),
    ] {
        assert!(out.contains(from), "{what}: {out}");
        let lost = missing(KEPT, &out.replacen(from, to, 1));
        assert!(
            lost.iter().any(|l| l.contains(what)),
            "{what} not reported: {lost:?}"
        );
    }
}

/// `pbn fmt` says on stderr which games it kept data of as comments, and
/// says nothing of a file that has none.
#[test]
fn fmt_names_the_games_it_kept_data_of_as_comments() {
    let d = std::env::temp_dir().join(format!("pbn-keeps-data-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let kept = d.join("kept.pbn");
    std::fs::write(&kept, format!("[Event \"a\"]\n\n{KEPT}")).unwrap();
    let clean = d.join("clean.pbn");
    std::fs::write(&clean, "[Event \"a\"]\n[Room \"Open\"]\n").unwrap();
    let run = |f: &std::path::Path| {
        pbn_tests::binary::run_pbn(&["fmt", "--stdout", f.to_str().unwrap()], None, &d)
    };
    let (code, out, err) = run(&kept);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(";[Room \"IMP\"]"), "{out}");
    assert!(
        err.contains("kept.pbn: 1 game with data export format cannot hold")
            && err.contains("(2): kept as `;` comments"),
        "{err}"
    );
    let (code, _, err) = run(&clean);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("comments"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}
