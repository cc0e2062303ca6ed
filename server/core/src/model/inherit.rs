//! Tag value inheritance across games (§4.8).
//!
//! - `"#"`: the value of the same tag in the nearest previous game that has
//!   a real value (repeating until one is found); `""` when there is none.
//! - `"##text"`: `text` in this game and in every later game that does not
//!   have the tag; a later real value of the tag replaces it from there on
//!   ("such tags can still redefine their tag value in the middle of the
//!   file").
//!
//! Forbidden tags (Dealer, Vulnerable, Deal, Declarer, Contract, Auction,
//! Play, Note) are still resolved here; the checker reports them.

use super::{Document, Game, Inherit, Inherited, Source};
use crate::hash::{Map as HashMap, Set as HashSet};
use std::sync::Arc;

pub(super) fn resolve(doc: &mut Document) {
    // Without any `#` or `##` value there is nothing to resolve.
    if !doc
        .games
        .iter()
        .any(|g| g.tags.iter().any(|t| t.inherit != Inherit::None))
    {
        return;
    }
    let mut env = Env::default();
    for (g, game) in doc.games.iter_mut().enumerate() {
        env.apply(g, game);
    }
}

/// What one game contributes to inheritance, without positions: its first
/// tag of each name (§3.4: a repeated tag is ignored), Note tags left out.
/// The language server keeps it per game text, so that an edit elsewhere
/// does not need this game lowered again.
#[derive(Clone, Debug, Default)]
pub struct TagSummary {
    /// (tag index in [`Game::tags`], name, marker, unescaped value).
    pub tags: Vec<(usize, String, Inherit, Option<String>)>,
}

impl TagSummary {
    pub fn of(game: &Game) -> TagSummary {
        let mut seen: HashSet<&str> = HashSet::default();
        let mut tags = Vec::new();
        for (t, tag) in game.tags.iter().enumerate() {
            if tag.name == "Note" || !seen.insert(&tag.name) {
                continue;
            }
            tags.push((
                t,
                tag.name.as_str().to_owned(),
                tag.inherit,
                tag.value.as_ref().map(|v| v.text.as_str().to_owned()),
            ));
        }
        tags.shrink_to_fit();
        TagSummary { tags }
    }

    /// Does any tag use `#` or `##`?
    pub fn has_markers(&self) -> bool {
        self.tags.iter().any(|(_, _, i, _)| *i != Inherit::None)
    }
}

/// What inheritance gives one game: the resolved values of its `#`/`##`
/// tags (by tag index) and the `##` values it receives without the tag.
///
/// The `##` values received are shared with the games before while they
/// do not change: a `##` value followed by many games costs each game a
/// reference, not a copy of every value (and of its name).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resolution {
    pub resolved: Vec<(usize, (String, Option<Source>))>,
    pub inherited: Arc<[Inherited]>,
}

impl Resolution {
    /// Sets the game's resolved values and inherited tags.
    pub fn apply_to(self, game: &mut Game) {
        for (t, r) in self.resolved {
            game.tags[t].resolved = Some(Box::new(r));
        }
        game.inherited = self.inherited.to_vec();
    }

    /// Appends `r` to the resolutions of consecutive games `list`, sharing
    /// the last one when `r` is the same: the games after a `#` or `##`
    /// value that all resolve alike (§4.8) cost a reference each.
    pub fn push_shared(list: &mut Vec<Arc<Resolution>>, r: Resolution) {
        match list.last() {
            Some(last) if **last == r => {
                let last = last.clone();
                list.push(last);
            }
            _ => list.push(Arc::new(r)),
        }
    }

    /// A hash of the values (not the sources): what a game's diagnostics
    /// can depend on.
    pub fn value_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for (t, (v, _)) in &self.resolved {
            (t, v).hash(&mut h);
        }
        for i in self.inherited.iter() {
            (&i.name, &i.value).hash(&mut h);
        }
        h.finish()
    }

    /// This resolution with every source's game index passed through `f`
    /// (the language server renumbers the games after an edit that added
    /// or removed some, instead of resolving them again).
    pub fn renumbered(&self, f: impl Fn(usize) -> usize) -> Resolution {
        Resolution {
            resolved: self
                .resolved
                .iter()
                .map(|(t, (v, src))| (*t, (v.clone(), src.as_ref().map(|s| s.renumbered(&f)))))
                .collect(),
            inherited: self
                .inherited
                .iter()
                .map(|i| Inherited {
                    source: i.source.renumbered(&f),
                    ..i.clone()
                })
                .collect(),
        }
    }
}

impl Source {
    fn renumbered(&self, f: impl Fn(usize) -> usize) -> Source {
        Source {
            game: f(self.game),
            tag: self.tag,
        }
    }
}

/// The inheritance state between two games, walked game by game.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// Last real value of each tag name, with its source.
    last: HashMap<String, (String, Source)>,
    /// `##` values that apply to later games without the tag.
    /// (value, source, written with `##`).
    header: HashMap<String, (String, Source, bool)>,
    /// Every `header` value as a game without any of these tags receives
    /// them (sorted by name), built again only when `header` changes.
    received: Option<Arc<[Inherited]>>,
}

impl Env {
    /// Whether this state is `old` once `old`'s source game indices are
    /// passed through `f`: then every later game resolves as it did, its
    /// sources passed through `f` (inheritance only copies game indices).
    pub fn same_as(&self, old: &Env, f: impl Fn(usize) -> usize) -> bool {
        let same = |a: &Source, b: &Source| a.tag == b.tag && a.game == f(b.game);
        self.last.len() == old.last.len()
            && self.header.len() == old.header.len()
            && self.last.iter().all(|(k, (v, s))| {
                old.last
                    .get(k)
                    .is_some_and(|(ov, os)| ov == v && same(s, os))
            })
            && self.header.iter().all(|(k, (v, s, m))| {
                old.header
                    .get(k)
                    .is_some_and(|(ov, os, om)| ov == v && om == m && same(s, os))
            })
    }

    /// This state with every source's game index passed through `f`.
    pub fn renumbered(&self, f: impl Fn(usize) -> usize) -> Env {
        Env {
            last: self
                .last
                .iter()
                .map(|(k, (v, s))| (k.clone(), (v.clone(), s.renumbered(&f))))
                .collect(),
            header: self
                .header
                .iter()
                .map(|(k, (v, s, m))| (k.clone(), (v.clone(), s.renumbered(&f), *m)))
                .collect(),
            received: None,
        }
    }

    /// Resolves game `g` (its tags as in `summary`) and moves past it.
    pub fn step(&mut self, g: usize, summary: &TagSummary) -> Resolution {
        let mut res = Resolution::default();
        let mut updates: Vec<(String, String, Source, bool)> = Vec::new();
        for (t, name, inherit, value) in &summary.tags {
            let t = *t;
            match inherit {
                Inherit::Previous => {
                    res.resolved.push((
                        t,
                        match self.last.get(name) {
                            Some((v, src)) => (v.clone(), Some(src.clone())),
                            None => (String::new(), None),
                        },
                    ));
                }
                Inherit::Header => {
                    // The marker is only set on a value starting with `##`.
                    let text = value.as_deref().map_or("", |v| &v[2..]).to_owned();
                    res.resolved.push((t, (text.clone(), None)));
                    updates.push((name.clone(), text.clone(), Source { game: g, tag: t }, true));
                }
                Inherit::None => {
                    if let Some(v) = value {
                        updates.push((name.clone(), v.clone(), Source { game: g, tag: t }, false));
                    }
                }
            }
        }
        if !self.header.is_empty() {
            res.inherited = self.received_without(summary);
        }
        for (name, value, source, is_header) in updates {
            if is_header || self.header.contains_key(&name) {
                self.header
                    .insert(name.clone(), (value.clone(), source.clone(), is_header));
                self.received = None;
            }
            self.last.insert(name, (value, source));
        }
        res
    }

    /// The `##` values a game with the tags of `summary` receives: those
    /// of tags it does not have. Shared with the games before when it has
    /// none of them (a look-up per tag of the game, no copy).
    fn received_without(&mut self, summary: &TagSummary) -> Arc<[Inherited]> {
        let all = self
            .received
            .get_or_insert_with(|| {
                let mut v: Vec<Inherited> = self
                    .header
                    .iter()
                    .map(|(name, (value, source, marked))| Inherited {
                        name: name.clone(),
                        value: value.clone(),
                        source: source.clone(),
                        marked: *marked,
                    })
                    .collect();
                v.sort_by(|a, b| a.name.cmp(&b.name));
                v.into()
            })
            .clone();
        let has = |name: &str| self.header.contains_key(name);
        if !summary.tags.iter().any(|(_, n, _, _)| has(n)) {
            return all;
        }
        let names: HashSet<&str> = summary.tags.iter().map(|(_, n, _, _)| n.as_str()).collect();
        all.iter()
            .filter(|i| !names.contains(i.name.as_str()))
            .cloned()
            .collect()
    }

    /// Resolves game `g` in place and moves past it.
    pub fn apply(&mut self, g: usize, game: &mut Game) {
        let res = self.step(g, &TagSummary::of(game));
        res.apply_to(game);
    }

    /// Resolves consecutive games in place, each as the game of its own
    /// index, and moves past them.
    pub fn apply_all(&mut self, games: &mut [Game]) {
        for g in games {
            self.apply(g.index, g);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::lower;
    use crate::syntax::parse;

    fn doc(text: &str) -> crate::model::Document {
        lower(&parse(text), text)
    }

    #[test]
    fn hash_takes_nearest_previous_real_value() {
        let d = doc("[Event \"A\"]\n\n[Event \"#\"]\n\n[Site \"x\"]\n\n[Event \"#\"]\n\n[Event \"B\"]\n\n[Event \"#\"]\n");
        let v: Vec<_> = d
            .games
            .iter()
            .map(|g| g.value("Event").map(str::to_owned))
            .collect();
        assert_eq!(
            v,
            [Some("A"), Some("A"), None, Some("A"), Some("B"), Some("B")]
                .map(|o| o.map(str::to_owned))
        );
        let src = d.games[3]
            .tag("Event")
            .unwrap()
            .resolved
            .clone()
            .unwrap()
            .1
            .clone()
            .unwrap();
        assert_eq!((src.game, src.tag), (0, 0));
    }

    #[test]
    fn hash_without_previous_is_empty() {
        let d = doc("[Event \"#\"]\n");
        assert_eq!(d.games[0].value("Event"), Some(""));
    }

    #[test]
    fn double_hash_applies_to_later_games_until_redefined() {
        let d = doc("[Date \"##2024.01.01\"]\n[Board \"1\"]\n\n[Board \"2\"]\n\n[Date \"2024.01.02\"]\n\n[Board \"4\"]\n");
        let v: Vec<_> = d
            .games
            .iter()
            .map(|g| g.value("Date").unwrap().to_owned())
            .collect();
        assert_eq!(v, ["2024.01.01", "2024.01.01", "2024.01.02", "2024.01.02"]);
        assert_eq!(d.games[1].inherited[0].source.game, 0);
        assert_eq!(d.games[3].inherited[0].source.game, 2);
    }

    #[test]
    fn games_after_a_header_share_what_they_receive() {
        use super::{Env, Resolution, TagSummary};
        use std::sync::Arc;
        let d = doc("[Site \"##Paris\"]\n[Event \"A\"]\n\n[Event \"#\"]\n\n[Event \"#\"]\n\n[Site \"Rome\"]\n\n[Event \"#\"]\n");
        let mut env = Env::default();
        let mut list = Vec::new();
        for (g, game) in d.games.iter().enumerate() {
            Resolution::push_shared(&mut list, env.step(g, &TagSummary::of(game)));
        }
        // Games 1 and 2 resolve alike: one resolution for both.
        assert!(Arc::ptr_eq(&list[1], &list[2]));
        assert_eq!(list[1].inherited[0].value, "Paris");
        assert_eq!(list[1].resolved[0].1 .0, "A");
        // Game 3 has the tag: it receives nothing, and game 4 the new value.
        assert!(list[3].inherited.is_empty());
        assert!(!Arc::ptr_eq(&list[2], &list[4]));
        assert_eq!(list[4].inherited[0].value, "Rome");
        assert!(!list[4].inherited[0].marked);
        // Without a change of the header, the list received is shared.
        let mut env = Env::default();
        let r: Vec<Resolution> = d.games[..3]
            .iter()
            .enumerate()
            .map(|(g, game)| env.step(g, &TagSummary::of(game)))
            .collect();
        assert!(Arc::ptr_eq(&r[1].inherited, &r[2].inherited));
    }
}
