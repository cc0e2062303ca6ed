//! Putting the diagnostics together: per-piece segments merged with what
//! belongs to the file, in document order.

use super::inherit::Resolutions;
use super::state::{Checked, GameRanges, Segment};
use crate::diagnostic::Diagnostic;
use crate::rules;
use crate::text::SourceText;
use std::ops::Range;
use std::sync::Arc;

pub(super) fn with_games(
    mut c: Checked,
    ranges: GameRanges,
    resolutions: Option<Resolutions>,
) -> Checked {
    c.game_ranges = ranges;
    c.resolutions = resolutions;
    c
}

/// The game whose chunk holds `at`, as `check_text` assigns syntax and
/// text diagnostics.
pub(super) fn game_by_position(chunk_ranges: &[Range<usize>], at: usize) -> Option<usize> {
    let i = chunk_ranges.partition_point(|r| r.end <= at);
    (i < chunk_ranges.len() && chunk_ranges[i].start <= at).then_some(i)
}

/// Whether the segments' diagnostics, one segment after the other, are in
/// the order of [`crate::diagnostic::sort`] (each is sorted within; one that
/// reaches past its piece may not be).
pub(super) fn in_order(segments: &[Segment]) -> bool {
    let mut last: Option<(usize, usize, &'static str)> = None;
    for seg in segments {
        let (Some(first), Some(end)) = (seg.diags.first(), seg.diags.last()) else {
            continue;
        };
        if last.is_some_and(|l| l > seg.key(first)) {
            return false;
        }
        last = Some(seg.key(end));
    }
    true
}

/// The pieces' segments (in order: [`in_order`]) with the loose diagnostics
/// (in document offsets) put in order between them; a piece that a loose
/// diagnostic falls inside becomes a loose segment of its own.
pub(super) fn merge(games: usize, segments: Vec<Segment>, mut loose: Vec<Diagnostic>) -> Checked {
    let key = |d: &Diagnostic| (d.range.start, d.range.end, d.code.code);
    crate::diagnostic::sort(&mut loose);
    let mut loose = loose.into_iter().peekable();
    let mut out = Vec::with_capacity(segments.len() + 2);
    let push_loose = |out: &mut Vec<Segment>, v: Vec<Diagnostic>| {
        if !v.is_empty() {
            out.push(Segment {
                shift: 0,
                first_game: 0,
                diags: Arc::new(v),
                len: 0,
                lasting: false,
            });
        }
    };
    for seg in segments {
        let (Some(first), Some(end)) = (seg.diags.first(), seg.diags.last()) else {
            continue;
        };
        let (first, end) = (seg.key(first), seg.key(end));
        let mut before = Vec::new();
        while let Some(d) = loose.next_if(|d| key(d) < first) {
            before.push(d);
        }
        push_loose(&mut out, before);
        if loose.peek().is_some_and(|d| key(d) <= end) {
            let mut v: Vec<Diagnostic> = seg.diags.iter().map(|d| seg.absolute(d)).collect();
            while let Some(d) = loose.next_if(|d| key(d) <= end) {
                v.push(d);
            }
            crate::diagnostic::sort(&mut v);
            push_loose(&mut out, v);
        } else {
            out.push(seg);
        }
    }
    push_loose(&mut out, loose.collect());
    Checked {
        games,
        segments: out,
        ..Checked::default()
    }
}

/// The pieces' segments and what belongs to the file (`loose`) as one
/// [`Checked`]: merged in order when no per-file limit applies and the
/// segments are in order, else as one capped and sorted list.
pub(super) fn merge_with_file(
    source: &SourceText,
    export_from: Option<usize>,
    ranges: &GameRanges,
    n: usize,
    segments: Vec<Segment>,
    mut caps: [usize; rules::text::CAP_KINDS],
    mut loose: Vec<Diagnostic>,
) -> Checked {
    if export_from == Some(0) {
        rules::export::check_file_text(source, &mut loose);
    }
    for d in &mut loose {
        d.game = ranges.game_at(d.range.start);
    }
    rules::text::add_counts(&mut caps, &rules::text::cap_counts(&loose));
    if !rules::text::cap_changes(&caps) && in_order(&segments) {
        merge(n, segments, loose)
    } else {
        // The per-file limits apply, or the pieces' diagnostics are
        // not in order: as one list.
        let mut all = Checked {
            games: n,
            segments,
            ..Checked::default()
        }
        .flatten()
        .diagnostics;
        all.extend(loose);
        // What the pieces left out ([`rules::text::thin`]) still counts.
        let mut dropped = caps;
        for (d, k) in dropped.iter_mut().zip(rules::text::cap_counts(&all)) {
            *d -= k;
        }
        rules::text::cap(&mut all, &dropped);
        crate::diagnostic::sort(&mut all);
        Checked::loose(n, all)
    }
}
