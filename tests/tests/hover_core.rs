//! The core's hover (`pbn_core::hover`) on real files, through the input a
//! caller with only the text builds (`Parsed`: the whole document parsed
//! and lowered): at every token of every corpus file it answers without
//! panicking, with a range that holds the offset; on a sample of tokens it
//! equals the language server's hover, which reads a snapshot's pieces and
//! its games lowered one at a time; and with double dummy solved on the
//! spot on files with play.

use pbn::lsp::snapshot::Snapshot;
use pbn::lsp::state::Settings;
use pbn_core::dd::play::{PlayTrace, Setup};
use pbn_core::dd::verify::{Position, Solved};
use pbn_core::hover::{
    hover, DdAnswers, DdLookup, HoverAnswer, LeadsSolved, Parsed, PlaySolved, SolveNow,
};
use pbn_core::syntax::Forest;
use pbn_core::text::{LineIndex, SourceText};
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use std::collections::HashMap;
use std::sync::atomic::AtomicI32;
use std::sync::{Arc, Mutex};
use tower_lsp_server::ls_types::{
    HoverContents, HoverParams, TextDocumentIdentifier, TextDocumentPositionParams,
};

/// Double dummy always "solving…", as the server answers before its
/// solver has a result.
struct Pending;

impl DdAnswers for Pending {
    fn table(&self, _: &Position) -> DdLookup<Solved> {
        DdLookup::Solving
    }

    fn play(&self, _: &PlayTrace) -> DdLookup<PlaySolved> {
        DdLookup::Solving
    }

    fn leads(&self, _: &Setup) -> DdLookup<LeadsSolved> {
        DdLookup::Solving
    }
}

/// [`SolveNow`], each question solved once.
#[derive(Default)]
struct Memo {
    tables: Mutex<HashMap<Position, Arc<Solved>>>,
    plays: Mutex<HashMap<PlayTrace, Arc<PlaySolved>>>,
    leads: Mutex<HashMap<Setup, Arc<LeadsSolved>>>,
}

fn memo<K: Clone + Eq + std::hash::Hash, T>(
    map: &Mutex<HashMap<K, Arc<T>>>,
    key: &K,
    solve: impl FnOnce() -> DdLookup<T>,
) -> DdLookup<T> {
    if let Some(r) = map.lock().unwrap().get(key) {
        return DdLookup::Ready(r.clone());
    }
    let answer = solve();
    if let DdLookup::Ready(r) = &answer {
        map.lock().unwrap().insert(key.clone(), r.clone());
    }
    answer
}

impl DdAnswers for Memo {
    fn table(&self, p: &Position) -> DdLookup<Solved> {
        memo(&self.tables, p, || SolveNow.table(p))
    }

    fn play(&self, t: &PlayTrace) -> DdLookup<PlaySolved> {
        memo(&self.plays, t, || SolveNow.play(t))
    }

    fn leads(&self, s: &Setup) -> DdLookup<LeadsSolved> {
        memo(&self.leads, s, || SolveNow.leads(s))
    }
}

/// Every offset where a token starts or ends: the leaves of the trees and
/// the calls and cards of each run of them (`section_cells`).
fn token_offsets(text: &str, parsed: &Parsed) -> Vec<usize> {
    let mut out = Vec::new();
    for tree in &parsed.trees {
        pbn_core::syntax::for_each_node(tree.root_node(), |n| {
            if matches!(n.kind(), "calls" | "cards" | "section_token") {
                for c in pbn_core::syntax::section_cells(text, n.byte_range()) {
                    out.extend([c.start, c.end]);
                }
            } else if n.child_count() == 0 {
                out.extend([n.start_byte(), n.end_byte()]);
            }
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn check_range(name: &str, offset: usize, h: &Option<HoverAnswer>) {
    if let Some(h) = h {
        assert!(
            h.range.start <= offset && offset <= h.range.end,
            "{name}: hover at {offset} is about {:?}",
            h.range
        );
    }
}

#[test]
fn every_token_of_every_corpus_file() {
    let Some(dir) = corpus_dir() else { return };
    let mut hovers = 0;
    for (name, source) in corpus_sources(&dir) {
        let text = source.text.as_str();
        let parsed = Parsed::new(text);
        let input = parsed.input(text, &Pending);
        for o in token_offsets(text, &parsed) {
            let h = hover(&input, o);
            check_range(&name, o, &h);
            hovers += usize::from(h.is_some());
        }
    }
    assert!(hovers > 100_000, "{hovers} hovers");
}

/// The server's hover at `offset` as the core's answer: its Markdown and
/// the range converted back to bytes.
fn server_hover(snap: &Snapshot, offset: usize) -> Option<HoverAnswer> {
    let conv = snap.converter();
    let params = HoverParams {
        text_document_position_params: TextDocumentPositionParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            position: conv.position(offset),
        },
        work_done_progress_params: Default::default(),
    };
    let h = pbn::lsp::requests::hover::hover(snap, params)?;
    let HoverContents::Markup(m) = h.contents else {
        panic!("not Markdown")
    };
    Some(HoverAnswer {
        markdown: m.value,
        range: conv.byte_range(h.range.unwrap()),
    })
}

#[test]
fn the_server_answers_what_the_core_does() {
    let Some(dir) = corpus_dir() else { return };
    let mut compared = 0;
    for (name, source) in corpus_sources(&dir) {
        let text = source.text.as_str();
        let parsed = Parsed::new(text);
        let input = parsed.input(text, &Pending);
        // Small pieces, so that games lowered one by one from a piece's
        // trees meet `#` values resolved across pieces. A version already
        // stale: the server's solver drops its jobs, so every double-dummy
        // part stays "solving…", as with `Pending`.
        let snap = Snapshot::with_index(
            "file:///t.pbn".parse().unwrap(),
            1,
            SourceText::from_text(text.to_owned()),
            Forest::cut(text, 1024),
            LineIndex::new(text),
            Settings::default(),
        )
        .with_latest(&Arc::new(AtomicI32::new(2)));
        for o in token_offsets(text, &parsed).into_iter().step_by(7) {
            let core = hover(&input, o);
            assert_eq!(server_hover(&snap, o), core, "{name} at byte {o}");
            compared += usize::from(core.is_some());
        }
    }
    assert!(compared > 10_000, "{compared} hovers compared");
}

#[test]
fn every_token_with_double_dummy_solved() {
    let Some(dir) = corpus_dir() else { return };
    let files = [
        "richardschneider-pbn/Schiphol.pbn",
        "pbn2html/demo1.pbn",
        "endplay/sample.pbn",
        "pbnjveri/correct_10_onegame.pbn",
    ];
    let dd = Memo::default();
    let (mut tables, mut costs) = (0, 0);
    for (name, source) in corpus_sources(&dir) {
        if !files.contains(&name.as_str()) {
            continue;
        }
        let text = source.text.as_str();
        let parsed = Parsed::new(text);
        let input = parsed.input(text, &dd);
        for o in token_offsets(text, &parsed) {
            let h = hover(&input, o);
            check_range(&name, o, &h);
            let md = h.map(|h| h.markdown).unwrap_or_default();
            assert!(!md.contains("solving"), "{name} at {o}: {md}");
            tables += usize::from(md.contains("**Par:**"));
            costs += usize::from(md.contains("**Double dummy:** cost"));
        }
    }
    assert!(tables > 0 && costs > 0, "{tables} tables, {costs} cards");
}
