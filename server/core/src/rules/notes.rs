//! PBN07xx: annotations after calls and cards, irregularity marks, note
//! references and the notes they refer to (§3.5.2–§3.5.5, §3.6.2–§3.6.5,
//! §3.7, §3.9).

use super::GameCtx;
use crate::codes::notes as c;
use crate::diagnostic::Diagnostic;
use crate::hash::Set as HashSet;
use crate::model::{Annotation, AnnotationKind, Entry};
use crate::spec::sections::{Section, SUFFIXES};
use std::collections::BTreeMap;

pub fn check(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    if let Some(a) = &g.auction {
        let posts = a.entries.iter().map(|e| (e.pre(), e.post(), is_bid(e)));
        section(ctx, out, Section::Auction, posts, &a.stray, &a.notes);
    }
    if let Some(p) = &g.play {
        let posts = p.entries.iter().map(|e| (e.pre(), e.post(), true));
        section(ctx, out, Section::Play, posts, &p.stray, &p.notes);
    }
}

fn is_bid(e: &Entry<crate::model::CallToken>) -> bool {
    matches!(
        e.token,
        crate::model::CallToken::Bid(_) | crate::model::CallToken::Invalid
    )
}

/// The annotations and notes of one section.
fn section<'a>(
    ctx: &GameCtx<'_>,
    out: &mut Vec<Diagnostic>,
    sec: Section,
    entries: impl Iterator<Item = (&'a [Annotation], &'a [Annotation], bool)>,
    stray: &[Annotation],
    notes: &[usize],
) {
    let g = ctx.game;
    // Note index → tag index, for this section.
    let mut defined: BTreeMap<u32, usize> = BTreeMap::new();
    for (n, i) in g.note_indices(notes) {
        defined.entry(n).or_insert(i);
    }
    let mut used: HashSet<u32> = HashSet::default();

    stray_annotations(ctx, out, sec, stray);

    for (pre, post, is_bid) in entries {
        irregularity_marks(ctx, out, sec, pre, is_bid);
        annotations_after(ctx, out, sec, post, &defined, &mut used);
    }

    // Unused notes (§3.5.5).
    for (&n, &i) in &defined {
        if !used.contains(&n) {
            let mut d = Diagnostic::new(
                &c::UNUSED_NOTE,
                g.tags[i].range.clone(),
                format!(
                    "note {n} is not referred to by any {} of the {} section (§3.5.5)",
                    sec.thing(),
                    sec.name()
                ),
            );
            d.unnecessary = true;
            ctx.push(out, d);
        }
    }
}

/// Annotations with no call or card to belong to (§3.5.2, §3.9).
fn stray_annotations(
    ctx: &GameCtx<'_>,
    out: &mut Vec<Diagnostic>,
    sec: Section,
    stray: &[Annotation],
) {
    for a in stray {
        let what = match a.kind {
            AnnotationKind::Irregularity(_) => format!(
                "irregularity mark with no {} after it in the {} section (§3.9)",
                sec.thing(),
                sec.name()
            ),
            _ => format!(
                "annotation with no {} before it in the {} section (§3.5.2)",
                sec.thing(),
                sec.name()
            ),
        };
        ctx.push(
            out,
            Diagnostic::new(&c::STRAY_ANNOTATION, a.range.clone(), what),
        );
    }
}

/// Irregularity marks before a call or card (§3.9).
fn irregularity_marks(
    ctx: &GameCtx<'_>,
    out: &mut Vec<Diagnostic>,
    sec: Section,
    pre: &[Annotation],
    is_bid: bool,
) {
    for (k, a) in pre.iter().enumerate() {
        let AnnotationKind::Irregularity(ch) = a.kind else {
            continue;
        };
        let ok_here = match sec {
            Section::Auction => ch == 'I' && is_bid,
            Section::Play => ch == 'R' || ch == 'L',
        };
        let msg = if k > 0 {
            Some(format!(
                "a second irregularity mark `^{ch}`; a {} carries at most one (§3.9)",
                sec.thing()
            ))
        } else if !"ISRL".contains(ch) {
            Some(format!(
                "`^{ch}` is not an irregularity; PBN defines ^I, ^S, ^R and ^L (§3.9)"
            ))
        } else if ch == 'I' && sec == Section::Auction && !ok_here {
            Some("`^I` marks an insufficient bid and must precede a bid (§3.9)".to_owned())
        } else if !ok_here {
            Some(format!(
                "`^{ch}` belongs in the {} section (§3.9: ^I and ^S in the auction, ^R and ^L in the play)",
                if sec == Section::Auction { "play" } else { "auction" }
            ))
        } else {
            None
        };
        if let Some(m) = msg {
            ctx.push(
                out,
                Diagnostic::new(&c::MISPLACED_IRREGULARITY, a.range.clone(), m),
            );
        }
    }
}

/// The suffixes, note references and NAGs after a call or card (§3.5.2,
/// §3.5.4, §3.7); the note numbers referred to go to `used`.
fn annotations_after(
    ctx: &GameCtx<'_>,
    out: &mut Vec<Diagnostic>,
    sec: Section,
    post: &[Annotation],
    defined: &BTreeMap<u32, usize>,
    used: &mut HashSet<u32>,
) {
    let mut suffixes = 0;
    let mut refs = 0;
    let mut evaluation: Option<(u32, &Annotation)> = None;
    for a in post {
        match a.kind {
            AnnotationKind::Suffix(s) => {
                suffixes += 1;
                if suffixes > 1 {
                    ctx.push(
                        out,
                        Diagnostic::new(
                            &c::MULTIPLE_SUFFIXES,
                            a.range.clone(),
                            format!(
                                "a second suffix `{}`; at most one suffix may follow a {} (§3.5.2)",
                                SUFFIXES[s as usize - 1],
                                sec.thing()
                            ),
                        ),
                    );
                    continue;
                }
                evaluate(ctx, out, sec, &mut evaluation, sec.suffix_nag(s), a);
            }
            AnnotationKind::NoteRef(n) => {
                refs += 1;
                if refs > 1 {
                    ctx.push(out, Diagnostic::new(
                        &c::MULTIPLE_NOTE_REFS,
                        a.range.clone(),
                        format!("a second note reference; a {} can be followed by at most one (§3.5.4)", sec.thing()),
                    ));
                }
                match n {
                    None => ctx.push(
                        out,
                        Diagnostic::new(
                            &c::NOTE_REF_INVALID,
                            a.range.clone(),
                            "a note reference is `=` digits `=`, e.g. `=1=` (§3.2)",
                        ),
                    ),
                    Some(n) if !(1..=32).contains(&n) => ctx.push(
                        out,
                        Diagnostic::new(
                            &c::NOTE_INDEX_RANGE,
                            a.range.clone(),
                            format!(
                                "note index {} is outside 1..32 (§3.5.4)",
                                if n == u32::MAX {
                                    "too large".to_owned()
                                } else {
                                    n.to_string()
                                }
                            ),
                        ),
                    ),
                    Some(n) => {
                        used.insert(n);
                        if !defined.contains_key(&n) {
                            ctx.push(out, Diagnostic::new(
                                &c::MISSING_NOTE,
                                a.range.clone(),
                                format!("no `[Note \"{n}:…\"]` in the {} section explains `={n}=` (§3.5.5)", sec.name()),
                            ));
                        }
                    }
                }
            }
            AnnotationKind::Nag(None) => ctx.push(
                out,
                Diagnostic::new(
                    &c::NAG_NOT_A_NUMBER,
                    a.range.clone(),
                    "a NAG is `$` followed by digits, e.g. `$1` (§3.2, §3.7)",
                ),
            ),
            AnnotationKind::Nag(Some(n)) if n > 255 => ctx.push(
                out,
                Diagnostic::new(
                    &c::NAG_OUT_OF_RANGE,
                    a.range.clone(),
                    "NAG value above 255; NAGs are $0..$255 (§3.7)",
                ),
            ),
            AnnotationKind::Nag(Some(n)) => {
                if !sec.nag_allowed(n) {
                    ctx.push(out, Diagnostic::new(
                        &c::NAG_WRONG_SECTION,
                        a.range.clone(),
                        format!(
                            "${n} may only be used for {} (§3.7: $1..$6 and $13 for calls, $7..$12 and $14 for cards)",
                            if sec == Section::Auction { "played cards" } else { "calls" }
                        ),
                    ));
                } else if sec.is_evaluation(n) {
                    evaluate(ctx, out, sec, &mut evaluation, n, a);
                }
            }
            AnnotationKind::Irregularity(_) => {}
        }
    }
}

/// Records an evaluation (suffix or NAG $1–$6 / $7–$12); a second one is a
/// conflict.
fn evaluate<'a>(
    ctx: &GameCtx<'_>,
    out: &mut Vec<Diagnostic>,
    sec: Section,
    evaluation: &mut Option<(u32, &'a Annotation)>,
    nag: u32,
    a: &'a Annotation,
) {
    match evaluation {
        None => *evaluation = Some((nag, a)),
        Some((prev, first)) => ctx.push(out, Diagnostic::new(
            &c::CONFLICTING_EVALUATION,
            a.range.clone(),
            format!(
                "a second evaluation of the same {} (${} and ${nag}); a suffix is the same as its NAG (§3.7)",
                sec.thing(),
                prev
            ),
        ).with_related(first.range.clone(), "first evaluation")),
    }
}

#[cfg(test)]
mod tests {
    /// A Note whose value breaks the form still defines its number
    /// ([`crate::model::Game::note_indices`]): the reference `=1=` to
    /// `" 1 :a"` has its note, and only `=2=`'s is missing.
    #[test]
    fn a_reference_finds_a_note_whose_form_is_broken() {
        let text = "[Auction \"N\"]\n1C =1= 1D =2= AP\n[Note \" 1 :a\"]\n[Note \"x:c\"]\n";
        let source = crate::text::decode(text.as_bytes());
        let res = crate::checker::check_text(&source, &Default::default());
        let missing: Vec<&str> = res
            .diagnostics
            .iter()
            .filter(|d| d.code.code == crate::codes::notes::MISSING_NOTE.code)
            .map(|d| &text[d.range.clone()])
            .collect();
        assert_eq!(missing, ["=2="]);
    }
}
