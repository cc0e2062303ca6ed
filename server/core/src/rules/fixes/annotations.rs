//! The fixes of calls, cards and their annotations: the form read, upper
//! case, the export order of annotations, an alert `*`, a missing note.

use super::tags::{set_value_fix, tag_at_value};
use super::text::{after_point, eol, is_blank};
use super::{edit, entry_at, mk};
use crate::diagnostic::Fix;
use crate::model::values;
use crate::model::{typed, Annotation, AnnotationKind, CallToken, CardToken, Game};
use std::ops::Range;

pub(super) fn nonstandard_call(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let e = entry_at(&g.auction.as_ref()?.entries, r)?;
    let t = &text[e.range.clone()];
    let (_, as_text) = typed::interpret_call(t)?;
    Some(mk(
        format!("Replace `{t}` with `{as_text}`"),
        vec![edit(r.clone(), as_text)],
        true,
    ))
}

pub(super) fn nonstandard_card(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let e = entry_at(&g.play.as_ref()?.entries, r)?;
    let t = &text[e.range.clone()];
    let (_, as_text) = typed::interpret_card(t)?;
    Some(mk(
        format!("Replace `{t}` with `{as_text}`"),
        vec![edit(r.clone(), as_text)],
        true,
    ))
}

/// PBN1006: a tag value, call or card in upper case.
pub(super) fn upper_case(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let (old, new) = if let Some(tag) = tag_at_value(g, r) {
        let raw = &tag.value.as_ref()?.raw;
        let new = if tag.name == "Contract" && raw.trim().eq_ignore_ascii_case("pass") {
            raw.replace(raw.trim(), "Pass")
        } else {
            raw.to_ascii_uppercase()
        };
        // Only a value the tag's reader reads: a template's `$contract` is
        // no value, and `$CONTRACT` would be other text.
        if !reads_as_value(&tag.name, &new) {
            return None;
        }
        return set_value_fix(tag, &new, format!("Write \"{new}\" in upper case"), true);
    } else if let Some(e) = g.auction.as_ref().and_then(|a| entry_at(&a.entries, r)) {
        let t = &text[r.clone()];
        let new = match e.token {
            CallToken::Bid(_) => t.to_ascii_uppercase(),
            CallToken::Pass => "Pass".into(),
            CallToken::Double => "X".into(),
            CallToken::Redouble => "XX".into(),
            CallToken::AllPass => "AP".into(),
            _ => return None,
        };
        (t, new)
    } else if let Some(e) = g.play.as_ref().and_then(|p| entry_at(&p.entries, r)) {
        if !matches!(e.token, CardToken::Card(_)) {
            return None;
        }
        let t = &text[r.clone()];
        (t, t.to_ascii_uppercase())
    } else {
        return None;
    };
    (old != new).then(|| {
        mk(
            format!("Replace `{old}` with `{new}`"),
            vec![edit(r.clone(), new)],
            true,
        )
    })
}

/// Whether `value` is a value of tag `name` that its reader reads (a tag
/// of §3.11's list, whose values may be written in lower case).
fn reads_as_value(name: &str, value: &str) -> bool {
    match name {
        "Dealer" => values::parse_dealer(value).value.is_some(),
        "Auction" => values::parse_auction_seat(value).value.is_some(),
        "Play" => values::parse_play_seat(value).value.is_some(),
        "Declarer" => values::parse_declarer(value).value.is_some(),
        "Contract" => values::parse_contract(value).value.is_some(),
        // `x` for a spot card (lower case) is no card `X`; a character
        // that is no card (`v`) stays as written, not made another one.
        "Deal" => {
            let p = values::parse_deal(value);
            p.value.is_some()
                && !value.contains('X')
                && !p
                    .issues
                    .iter()
                    .any(|i| i.severity() == crate::diagnostic::Severity::Error)
        }
        _ => false,
    }
}

/// The annotations after a call or card that holds the annotation `r`:
/// whether it is in the play section, and the annotations.
fn annotations_at<'g>(g: &'g Game, r: &Range<usize>) -> Option<(bool, &'g [Annotation])> {
    // The entries are in text order and an entry's annotations follow its
    // token: the entry is the last one starting before the annotation (a
    // binary search, not a scan: one diagnostic per call of a long auction
    // made the scans quadratic).
    fn find<'e, T>(
        entries: &'e [crate::model::Entry<T>],
        r: &Range<usize>,
    ) -> Option<&'e [Annotation]> {
        let i = entries.partition_point(|e| {
            probe();
            e.range.start <= r.start
        });
        let post = entries.get(i.checked_sub(1)?)?.post();
        at(post, r).map(|_| post)
    }
    if let Some(post) = g.auction.as_ref().and_then(|a| find(&a.entries, r)) {
        return Some((false, post));
    }
    g.play
        .as_ref()
        .and_then(|p| find(&p.entries, r))
        .map(|post| (true, post))
}

/// The annotation at `r` among `post` (in text order).
fn at<'a>(post: &'a [Annotation], r: &Range<usize>) -> Option<&'a Annotation> {
    let i = post.partition_point(|a| {
        probe();
        a.range.start < r.start
    });
    post.get(i).filter(|a| a.range == *r)
}

#[cfg(test)]
thread_local! {
    /// How many entries and annotations [`annotations_at`] looked at.
    static PROBES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[inline]
fn probe() {
    #[cfg(test)]
    PROBES.with(|p| p.set(p.get() + 1));
}

/// PBN1007/PBN1008: the note reference, then the NAGs in increasing order,
/// suffixes written as their NAG (§3.5.2, §3.7).
pub(super) fn annotation_order(
    text: &str,
    g: &Game,
    r: &Range<usize>,
    suffix: bool,
) -> Option<Fix> {
    let (play, post) = annotations_at(g, r)?;
    let nag_of = |s: u8| s as u32 + if play { 6 } else { 0 };
    let title = if suffix {
        let a = at(post, r)?;
        let AnnotationKind::Suffix(s) = a.kind else {
            return None;
        };
        format!("Replace `{}` with `${}`", &text[r.clone()], nag_of(s))
    } else {
        "Put the note reference first and the NAGs in increasing order".to_owned()
    };
    let contiguous = post
        .windows(2)
        .all(|w| is_blank(&text[w[0].range.end..w[1].range.start]));
    if !contiguous {
        // Comments between the annotations: only the suffix can be replaced.
        let a = at(post, r)?;
        let AnnotationKind::Suffix(s) = a.kind else {
            return None;
        };
        return Some(mk(
            title,
            vec![edit(r.clone(), format!("${}", nag_of(s)))],
            true,
        ));
    }
    let (mut refs, mut nags, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for a in post {
        match a.kind {
            AnnotationKind::NoteRef(_) => refs.push(text[a.range.clone()].to_owned()),
            AnnotationKind::Suffix(s) => nags.push(nag_of(s)),
            AnnotationKind::Nag(Some(n)) => nags.push(n),
            _ => rest.push(text[a.range.clone()].to_owned()),
        }
    }
    nags.sort_unstable();
    nags.dedup();
    let parts: Vec<String> = refs
        .into_iter()
        .chain(nags.iter().map(|n| format!("${n}")))
        .chain(rest)
        .collect();
    let span = post.first()?.range.start..post.last()?.range.end;
    Some(mk(title, vec![edit(span, parts.join(" "))], true))
}

/// PBN0511: the `*` at `r`, right after a call, as an alert (§3.5.4): a
/// reference to a new note (the next number after those the auction uses)
/// and `[Note "n:Alert"]` after the auction's notes. None when the call
/// has a note reference already (at most one, §3.5.2) or the numbers are
/// used up (1 to 32, §3.5.4).
pub(super) fn star_as_alert(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let a = g.auction.as_ref()?;
    let k = a.entries.iter().position(|e| e.range == *r)?;
    let call = a.entries.get(k.checked_sub(1)?)?;
    let is_ref = |x: &Annotation| matches!(x.kind, AnnotationKind::NoteRef(_));
    if call.post().iter().any(is_ref) {
        return None;
    }
    let refs = a
        .entries
        .iter()
        .flat_map(|e| e.post())
        .filter_map(|x| match x.kind {
            AnnotationKind::NoteRef(Some(n)) => Some(n),
            _ => None,
        });
    let notes = g.note_indices(&a.notes).map(|(n, _)| n);
    let n = refs.chain(notes).max().unwrap_or(0) + 1;
    if n > 32 {
        return None;
    }
    let end = a
        .notes
        .last()
        .map(|&i| g.tags[i].range.end)
        .unwrap_or(a.range.end)
        .max(a.range.end);
    let at = after_point(text, g, end);
    Some(mk(
        format!("Write the `*` as an alert: `={n}=` and `[Note \"{n}:Alert\"]` (§3.5.4)"),
        vec![
            edit(r.clone(), format!(" ={n}=")),
            edit(at..at, format!("{}[Note \"{n}:Alert\"]", eol(text))),
        ],
        false,
    ))
}

/// PBN0709: `[Note "n:"]` at the end of the section of the reference.
pub(super) fn add_note(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let (play, post) = annotations_at(g, r)?;
    let a = at(post, r)?;
    let AnnotationKind::NoteRef(Some(n)) = a.kind else {
        return None;
    };
    let (notes, end) = if play {
        let p = g.play.as_ref()?;
        (&p.notes, p.range.end)
    } else {
        let a = g.auction.as_ref()?;
        (&a.notes, a.range.end)
    };
    let end = notes
        .last()
        .map(|&i| g.tags[i].range.end)
        .unwrap_or(end)
        .max(end);
    let at = after_point(text, g, end);
    let line = format!("{}[Note \"{n}:\"]", eol(text));
    Some(mk(
        format!(
            "Add `[Note \"{n}:\"]` at the end of the {} section",
            if play { "play" } else { "auction" }
        ),
        vec![edit(at..at, line)],
        false,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An auction of `n` calls, each with a note reference, lowered.
    fn game(text: &str) -> Game {
        let trees = crate::syntax::parse_pieces(text);
        crate::model::lower(&trees, text).games.remove(0)
    }

    #[test]
    fn annotations_are_found_by_binary_search() {
        let n = 4096;
        let mut text = String::from("[Dealer \"N\"]\n[Auction \"N\"]\n");
        for i in 0..n {
            text += &format!(
                "1C ={}= $1{}",
                i % 32 + 1,
                if i % 4 == 3 { "\n" } else { " " }
            );
        }
        text += "[Play \"E\"]\nS2 =1= $7\n";
        let g = game(&text);
        let refs: Vec<Range<usize>> = g
            .auction
            .as_ref()
            .unwrap()
            .entries
            .iter()
            .map(|e| e.post()[0].range.clone())
            .collect();
        assert_eq!(refs.len(), n);
        PROBES.with(|p| p.set(0));
        for r in &refs {
            let (play, post) = annotations_at(&g, r).expect("found");
            assert!(!play);
            assert_eq!(post[0].range, *r);
        }
        // A scan per annotation looked at n²/2 entries (8 million): one
        // diagnostic per call of a long auction made it quadratic.
        let probes = PROBES.with(|p| p.get());
        assert!(probes <= n * 16, "{probes} probes for {n} annotations");

        // The NAG after each call, the play's annotations, and a range
        // that is no annotation.
        let nag = g.auction.as_ref().unwrap().entries[7].post()[1]
            .range
            .clone();
        assert_eq!(
            annotations_at(&g, &nag).map(|(p, a)| (p, a.len())),
            Some((false, 2))
        );
        let card = &g.play.as_ref().unwrap().entries[0];
        let (play, post) = annotations_at(&g, &card.post()[1].range).expect("in the play");
        assert!(play);
        assert_eq!(post.len(), 2);
        assert_eq!(annotations_at(&g, &(card.range.clone())), None);
        let before = 0..1;
        assert_eq!(annotations_at(&g, &before), None);
    }

    /// The alert note takes a number no Note has: a Note whose form is
    /// broken (`" 2 :x"`) still holds its number 2.
    #[test]
    fn an_alert_note_takes_a_number_no_note_holds() {
        let text = "[Auction \"N\"]\n1H Pass 2C =1= Pass\n4C* Pass 4H Pass\nPass Pass\n[Note \"1:Drury\"]\n[Note \" 2 :x\"]\n";
        let source = crate::text::decode(text.as_bytes());
        let fixed = crate::checker::fix::fix_source(&source, &Default::default(), true);
        let out = &fixed.source.text;
        assert!(out.contains("4C =3="), "{out}");
        assert!(out.contains("[Note \"3:Alert\"]"), "{out}");
    }
}
