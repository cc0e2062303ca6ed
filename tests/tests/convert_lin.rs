//! LIN ↔ PBN (`pbn_core::convert::lin`): directory-driven snapshots of
//! `tests/fixtures/convert/lin` (`*.lin` → PBN and read diagnostics,
//! `*.pbn` → LIN and losses), the corpus round trip PBN → LIN → PBN
//! compared by `pbn dump`, and random input that must not panic.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::codes::Severity;
use pbn_core::convert::lin::{from_pbn, to_pbn};
use pbn_core::text::{LineIndex, PositionEncoding, SourceText};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures(ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/convert/lin");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

fn name(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// `line:col severity message` of each read diagnostic, placed in `input`.
fn read_report(input: &str, diags: &[pbn_core::convert::ReadDiagnostic]) -> String {
    let index = LineIndex::new(input);
    let mut s = String::new();
    for d in diags {
        let p = index.line_col(input, d.range.start, PositionEncoding::Chars);
        s.push_str(&format!(
            "{}:{} {} {}\n",
            p.line + 1,
            p.col + 1,
            d.severity.name(),
            d.message
        ));
    }
    s
}

/// `pbn check` errors of a PBN text.
fn check_errors(pbn: &str) -> Vec<String> {
    let res = check_text(
        &SourceText::from_text(pbn.to_string()),
        &CheckOptions { export: false },
    );
    res.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code.code, d.message))
        .collect()
}

#[test]
fn lin_fixtures_read_as_pbn() {
    let files = fixtures("lin");
    assert!(files.len() >= 4);
    for path in files {
        let input = std::fs::read_to_string(&path).unwrap();
        let n = name(&path);
        let out = to_pbn(&input);
        let report = format!(
            "{}\n--- diagnostics\n{}",
            out.text,
            read_report(&input, &out.diagnostics)
        );
        insta::assert_snapshot!(format!("lin_to_pbn__{n}"), report);
        if n == "malformed" {
            assert!(
                out.diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count()
                    >= 5,
                "{n}: every malformed pair is reported"
            );
        } else {
            assert!(
                out.diagnostics
                    .iter()
                    .all(|d| d.severity != Severity::Error),
                "{n}: {:?}",
                out.diagnostics
            );
            assert_eq!(check_errors(&out.text), Vec::<String>::new(), "{n}");
        }
    }
}

#[test]
fn pbn_fixtures_write_as_lin() {
    let files = fixtures("pbn");
    assert!(!files.is_empty());
    for path in files {
        let input = std::fs::read_to_string(&path).unwrap();
        let n = name(&path);
        let out = from_pbn(&input);
        let mut report = format!("{}--- losses\n", out.text);
        for l in &out.losses {
            report.push_str(&format!("game {}: {}\n", l.game + 1, l.what));
        }
        insta::assert_snapshot!(format!("pbn_to_lin__{n}"), report);
        // And back: the LIN this writes reads without a diagnostic.
        let back = to_pbn(&out.text);
        assert_eq!(back.diagnostics, vec![], "{n}");
    }
}

/// Turns each call's or card's note number into the note's text (LIN
/// renumbers notes) and drops what the losses say LIN cannot hold.
fn normalize_section(section: &mut Value, drop_annotations: bool) {
    let notes = section["notes"].take();
    let text_of = |v: &Value| match v {
        Value::Number(n) => notes.get(n.to_string()).cloned().unwrap_or(Value::Null),
        other => other.clone(),
    };
    let mut fix = |item: &mut Value| {
        if let Some(m) = item.as_object_mut() {
            if drop_annotations {
                m.remove("nags");
                m.remove("irregular");
            }
            // A reference to a note that is not there reads as an alert
            // without explanation: an empty note.
            if let Some(note) = m.get("note").cloned() {
                let t = text_of(&note);
                m.insert("note".into(), if t.is_null() { Value::from("") } else { t });
            }
            // A call or card left alone is the same as its bare text.
            if m.len() == 1 {
                if let Some(c) = m.get("card").cloned() {
                    *item = c;
                }
            }
        }
    };
    if let Some(calls) = section.get_mut("calls").and_then(Value::as_array_mut) {
        calls.iter_mut().for_each(&mut fix);
    }
    if let Some(tricks) = section.get_mut("tricks").and_then(Value::as_array_mut) {
        for t in tricks {
            if let Some(m) = t.as_object_mut() {
                m.values_mut().for_each(&mut fix);
            }
        }
    }
    // Where the calls or cards end is not LIN's to say: a LIN auction or
    // play ends where its pairs end.
    section.as_object_mut().map(|m| m.remove("end"));
}

/// Tags the reader derives from `mb`, `pc` and `mc` (added where the PBN
/// game left them out).
const DERIVED: [&str; 4] = ["Declarer", "Contract", "Result", "Dealer"];

#[test]
#[ignore = "unfinished: some corpus games still differ after the round trip"]
fn corpus_round_trip_keeps_what_lin_holds() {
    let Some(dir) = pbn_tests::corpus::corpus_dir() else {
        return;
    };
    let mut compared = 0;
    let mut failures = Vec::new();
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for (file, source) in pbn_tests::corpus::corpus_sources(&dir) {
        let text = &source.text;
        let dump = |t: &str| {
            let tree = pbn_core::syntax::parse_pieces(t);
            pbn_core::model::dump::dump(&pbn_core::model::lower(&tree, t), t)
        };
        let lin = from_pbn(text);
        let back = to_pbn(&lin.text);
        let (orig, again) = (dump(text), dump(&back.text));
        let orig_games = orig["games"].as_array().unwrap();
        let again_games = again["games"].as_array().unwrap();
        if orig_games.len() != again_games.len() {
            if lin
                .losses
                .iter()
                .any(|l| l.what.contains("cannot keep it apart"))
            {
                *kinds.entry("merged boards".into()).or_default() += 1;
                continue;
            }
            failures.push(format!(
                "{file}: {} games became {}",
                orig_games.len(),
                again_games.len()
            ));
            continue;
        }
        for (k, (o, a)) in orig_games.iter().zip(again_games).enumerate() {
            let losses: Vec<&str> = lin
                .losses
                .iter()
                .filter(|l| l.game == k)
                .map(|l| l.what.as_str())
                .collect();
            for l in &losses {
                let kind = l.split(':').next().unwrap_or(l).to_string();
                *kinds.entry(kind).or_default() += 1;
            }
            if losses.iter().any(|l| l.starts_with("game:")) {
                continue;
            }
            let (mut o, mut a) = (o.clone(), a.clone());
            // Tags: those with a loss go; the derived ones may appear.
            let lost_tag = |name: &str| {
                losses
                    .iter()
                    .any(|l| l.starts_with(&format!("tag {name}:")))
            };
            // An empty value says nothing (LIN writes no field for it).
            let ot = o["tags"].as_object_mut().unwrap();
            ot.retain(|name, v| !lost_tag(name) && v.as_str() != Some(""));
            let at = a["tags"].as_object_mut().unwrap();
            at.retain(|name, _| ot.contains_key(name) || !DERIVED.contains(&name.as_str()));
            at.retain(|name, _| !lost_tag(name));
            for (g, part) in [(&mut o, "auction"), (&mut a, "auction")] {
                if let Some(s) = g.get_mut(part) {
                    normalize_section(
                        s,
                        losses
                            .iter()
                            .any(|l| l.starts_with("auction: the annotation")),
                    );
                }
            }
            for g in [&mut o, &mut a] {
                if let Some(s) = g.get_mut("play") {
                    normalize_section(
                        s,
                        losses.iter().any(|l| l.starts_with("play: the annotation")),
                    );
                }
                if losses.iter().any(|l| l.starts_with("supplemental section")) {
                    g.as_object_mut().unwrap().remove("sections");
                }
                g.as_object_mut().unwrap().remove("game");
            }
            if o != a {
                failures.push(format!(
                    "{file} game {}: losses {losses:?}\n  pbn: {o}\n  lin: {a}",
                    k + 1
                ));
            }
            compared += 1;
        }
    }
    eprintln!("compared {compared} games; losses by kind: {kinds:?}");
    assert!(
        failures.is_empty(),
        "{} games differ:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|f| f.lines().next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(compared > 500, "only {compared} games compared");
}

/// A small deterministic generator (xorshift): random LIN-like text from
/// pieces that matter (keys, pipes, cards, digits, commas, newlines).
#[test]
fn random_input_never_panics() {
    let pieces = [
        "|", "||", "md", "mb", "pc", "an", "mc", "qx", "pn", "sv", "vg", "ah", "nt", "%", "\n",
        ",", "3", "S", "HA", "1N", "!", "p", "o1", "10", "é", "zz", " ", "SAKQ", "13",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let len = (next() % 60) as usize;
        let input: String = (0..len)
            .map(|_| pieces[(next() % pieces.len() as u64) as usize])
            .collect();
        let out = to_pbn(&input);
        for d in &out.diagnostics {
            assert!(
                d.range.start <= d.range.end && input.is_char_boundary(d.range.start),
                "{input:?}: {d:?}"
            );
        }
        let _ = from_pbn(&out.text);
    }
}
