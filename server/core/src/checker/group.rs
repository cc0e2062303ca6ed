//! File-wide patterns shown once ([`crate::codes::POLICY`]): the same
//! code and message form in many games of a file (a foreign date form in
//! every game, `1N` for 1NT, a layout fault of export format, boards that
//! never follow the usual dealer rotation) become one diagnostic on the
//! first occurrence, with the count, the first games, the places as
//! related information and one fix holding every edit. Applied last, to
//! a whole file's diagnostics, by every check ([`crate::reference::check_parsed`],
//! [`super::check_segments`]); only codes with a
//! [`crate::codes::pattern`] are ever grouped, so a revoke, an impossible
//! deal or a wrong score keeps its own diagnostic in its own game.

use super::state::Checked;
use crate::codes::{pattern, Pattern, Severity};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Related};
use rustc_hash::FxHashMap as HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A pattern is a pattern in at least this many games…
pub const MIN_GAMES: usize = 5;
/// …or in at least this many and more than half of a file's games.
pub const MIN_GAMES_HALF: usize = 3;
/// At most this many places of a group are related information.
pub const RELATED: usize = 10;
/// What starts the words a group adds to its first member's message.
const MARK: &str = " [the same in ";
/// The games a group's message names.
const NAMED: usize = 5;

/// What tells patterns apart: the code, the severity and the message's
/// form ([`Pattern`]), hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    code: &'static str,
    severity: Severity,
    form: u64,
}

/// The pattern `d` belongs to, if its code forms patterns and it belongs
/// to a game.
pub fn key(d: &Diagnostic) -> Option<Key> {
    let how = pattern(d.code)?;
    d.game?;
    let mut h = rustc_hash::FxHasher::default();
    if how != Pattern::Code {
        let mut digits = false;
        let mut quoted = false;
        // A group's own message is read without what grouping added.
        let message = match d.message.rfind(MARK) {
            Some(at) => &d.message[..at],
            None => &d.message[..],
        };
        for c in message.chars() {
            if how == Pattern::Quotes && c == '`' {
                quoted = !quoted;
                c.hash(&mut h);
                continue;
            }
            if quoted {
                continue;
            }
            if c.is_ascii_digit() {
                if !digits {
                    '#'.hash(&mut h);
                }
                digits = true;
                continue;
            }
            digits = false;
            c.hash(&mut h);
        }
    }
    Some(Key {
        code: d.code.code,
        severity: d.severity,
        form: h.finish(),
    })
}

/// The games each pattern is in, counted as diagnostics are added in
/// document order.
#[derive(Default)]
struct Counts {
    /// Per key: games, last game seen.
    by_key: HashMap<Key, (usize, usize)>,
}

impl Counts {
    fn add(&mut self, d: &Diagnostic, game: Option<usize>) {
        let (Some(k), Some(g)) = (key(d), game) else {
            return;
        };
        let e = self.by_key.entry(k).or_insert((0, usize::MAX));
        if e.1 != g {
            e.0 += 1;
            e.1 = g;
        }
    }

    /// The keys that make a pattern in a file of `games` games.
    fn patterns(&self, games: usize) -> Vec<Key> {
        self.by_key
            .iter()
            .filter(|(_, &(n, _))| is_pattern(n, games))
            .map(|(k, _)| *k)
            .collect()
    }
}

/// Whether a form seen in `n` of a file's `games` games is a pattern.
pub fn is_pattern(n: usize, games: usize) -> bool {
    n >= MIN_GAMES || (n >= MIN_GAMES_HALF && 2 * n > games)
}

/// Groups the patterns of `diags` (a whole file's, in document order; `games`:
/// the file's number of games). Returns whether anything was grouped.
pub fn group(diags: &mut Vec<Diagnostic>, games: usize) -> bool {
    let mut counts = Counts::default();
    for d in diags.iter() {
        counts.add(d, d.game);
    }
    let keys = counts.patterns(games);
    if keys.is_empty() {
        return false;
    }
    // Each pattern's members, by index, in document order.
    let mut members: HashMap<Key, Vec<usize>> = keys.iter().map(|k| (*k, Vec::new())).collect();
    for (i, d) in diags.iter().enumerate() {
        if let Some(list) = key(d).and_then(|k| members.get_mut(&k)) {
            list.push(i);
        }
    }
    let mut gone = vec![false; diags.len()];
    let mut heads = Vec::with_capacity(members.len());
    for list in members.values() {
        heads.push((list[0], one_for(diags, list)));
        for &i in list {
            gone[i] = true;
        }
    }
    for (i, d) in heads {
        diags[i] = d;
        gone[i] = false;
    }
    let mut i = 0;
    diags.retain(|_| {
        i += 1;
        !gone[i - 1]
    });
    true
}

/// The one diagnostic of a pattern whose members are `list` (indices
/// into `diags`, in document order).
fn one_for(diags: &[Diagnostic], list: &[usize]) -> Diagnostic {
    let first = &diags[list[0]];
    let mut games: Vec<usize> = list.iter().filter_map(|&i| diags[i].game).collect();
    games.dedup();
    let mut named: Vec<String> = games
        .iter()
        .take(NAMED)
        .map(|g| (g + 1).to_string())
        .collect();
    if games.len() > NAMED {
        named.push(format!("and {} more", games.len() - NAMED));
    }
    let mut d = first.clone();
    let times = if list.len() > games.len() {
        format!(", {} times", list.len())
    } else {
        String::new()
    };
    d.set_message(format!(
        "{}{MARK}{} games{times}: games {}]",
        first.message,
        games.len(),
        named.join(", ")
    ));
    let unlisted = (list.len() - 1).saturating_sub(RELATED);
    for (k, &i) in list.iter().skip(1).take(RELATED).enumerate() {
        let m = &diags[i];
        let game = m.game.map_or(0, |g| g + 1);
        // The game alone when the message is the first's, else what differs.
        let mut message = match differing(&first.message, &m.message) {
            None => format!("game {game}"),
            Some(part) => format!("game {game}: {part}"),
        };
        if k + 1 == RELATED && unlisted > 0 {
            message.push_str(&format!(
                "; {unlisted} more not listed here (`pbn check --no-group` or \
                 `group = false` lists each)"
            ));
        }
        d.related.push(Related {
            range: m.range.clone(),
            message: message.into(),
        });
    }
    d.fix = fix_of_all(diags, list).map(Arc::new);
    d
}

/// What `other` says that `first` does not: `None` when the two are
/// equal; the words that differ between their common start and end, with
/// `…` for the rest, when that is short (`… (here 2): …`); else `other`.
fn differing(first: &str, other: &str) -> Option<String> {
    if first == other {
        return None;
    }
    let (mut start, mut end) = crate::text::common_ends(first, other);
    let b = other.as_bytes();
    // Whole words, and the word before for context (`(here 2)`): back to
    // the space before that, on to the space after.
    while start > 0 && b[start - 1] != b' ' {
        start -= 1;
    }
    if start > 0 {
        start -= 1;
        while start > 0 && b[start - 1] != b' ' {
            start -= 1;
        }
    }
    while end > 0 && b[b.len() - end] != b' ' {
        end -= 1;
    }
    let part = other.get(start..other.len() - end)?.trim();
    if part.is_empty() || part.len() > 60 || part.len() * 2 > other.len() {
        return Some(other.to_owned());
    }
    let before = if start > 0 { "… " } else { "" };
    let after = if end > 0 { " …" } else { "" };
    Some(format!("{before}{part}{after}"))
}

/// One fix with the edits of every member's fix (each distinct edit once;
/// one that overlaps an earlier one is left for the next round of fixes):
/// safe when every one was.
fn fix_of_all(diags: &[Diagnostic], list: &[usize]) -> Option<Fix> {
    let fixes: Vec<&Arc<Fix>> = list.iter().filter_map(|&i| diags[i].fix.as_ref()).collect();
    let first = fixes.first()?;
    if fixes.len() == 1 || first.encoding.is_some() {
        return Some(Fix::clone(first));
    }
    let mut edits: Vec<&Edit> = fixes.iter().flat_map(|f| f.edits.iter()).collect();
    edits.sort_by(|a, b| {
        (a.range.start, a.range.end, &a.new_text).cmp(&(b.range.start, b.range.end, &b.new_text))
    });
    edits.dedup();
    let mut kept: Vec<Edit> = Vec::with_capacity(edits.len());
    for e in edits {
        let clash = kept
            .last()
            .is_some_and(|k| k.range.end > e.range.start || k.range.start == e.range.start);
        if !clash {
            kept.push(e.clone());
        }
    }
    let applicability =
        Applicability::safe_if(fixes.iter().all(|f| f.applicability == Applicability::Safe));
    let mut fix = Fix::new(
        format!("{} (and the {} more like it)", first.title, fixes.len() - 1),
        kept,
        applicability,
    );
    fix.preferred = first.preferred && applicability == Applicability::Safe;
    Some(fix)
}

/// [`group`] on a check in segments: unchanged (its segments shared) when
/// no pattern is found, else one sorted list.
pub(super) fn group_checked(mut c: Checked) -> Checked {
    let mut counts = Counts::default();
    for s in &c.segments {
        for d in s.diags.iter() {
            counts.add(d, d.game.map(|g| g + s.first_game));
        }
    }
    if counts.patterns(c.games).is_empty() {
        return c;
    }
    let mut all = c.flatten().diagnostics;
    group(&mut all, c.games);
    c.segments = Checked::loose(c.games, all).segments;
    c
}

#[cfg(test)]
mod tests {
    use super::{differing, is_pattern, key};
    use crate::codes::{bridge, tables};
    use crate::diagnostic::Diagnostic;

    fn call(message: &str) -> Diagnostic {
        Diagnostic::new(&bridge::NONSTANDARD_CALL, 0..1, message).with_game(Some(0))
    }

    #[test]
    fn forms_differ_by_more_than_their_numbers() {
        let one = key(&call("`1N` is not a PBN call; read as `1NT` (§3.5.1)"));
        let three = key(&call("`3N` is not a PBN call; read as `3NT` (§3.5.1)"));
        let pass = key(&call("`P` is not a PBN call; read as `Pass` (§3.5.1)"));
        assert!(one.is_some());
        assert_eq!(one, three);
        assert_ne!(one, pass);
        // A code that never groups, and a diagnostic of no game.
        let table = Diagnostic::new(&tables::TABLE_ELEMENT_COUNT, 0..1, "x").with_game(Some(0));
        assert_eq!(key(&table), None);
        assert_eq!(key(&call("`P`").with_game(None)), None);
    }

    #[test]
    fn a_pattern_is_five_games_or_most_of_three_or_more() {
        assert!(is_pattern(5, 1000));
        assert!(!is_pattern(4, 1000));
        assert!(is_pattern(3, 4));
        assert!(!is_pattern(2, 3));
        assert!(!is_pattern(3, 6));
    }

    #[test]
    fn a_related_place_says_only_what_differs() {
        let first = "the tags fit only with the passes written (here 1): it starts at the bid";
        let other = "the tags fit only with the passes written (here 2): it starts at the bid";
        assert_eq!(differing(first, first), None);
        assert_eq!(differing(first, other).as_deref(), Some("… (here 2): …"));
        // At the start or the end: no `…` there.
        assert_eq!(
            differing("`1N` is read", "`3N` is read").as_deref(),
            Some("`3N` …")
        );
        assert_eq!(
            differing("it is read as 1NT", "it is read as 3NT").as_deref(),
            Some("… as 3NT")
        );
        // Too much differs: the whole message.
        assert_eq!(differing("a b", "c d").as_deref(), Some("c d"));
    }
}
