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

use super::{Document, Inherit, Inherited, Source};
use std::collections::HashMap;

pub(super) fn resolve(doc: &mut Document) {
    // Last real value of each tag name, with its source.
    let mut last: HashMap<String, (String, Source)> = HashMap::new();
    // `##` values that apply to later games without the tag.
    let mut header: HashMap<String, (String, Source)> = HashMap::new();
    for g in 0..doc.games.len() {
        let game = &mut doc.games[g];
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut updates: Vec<(String, String, Source, bool)> = Vec::new();
        for (t, tag) in game.tags.iter_mut().enumerate() {
            if seen.contains(&tag.name.as_str()) || tag.name == "Note" {
                continue; // §3.4: a repeated tag is ignored
            }
            match &tag.inherit {
                Inherit::Previous => {
                    tag.resolved = Some(match last.get(&tag.name) {
                        Some((v, src)) => (v.clone(), Some(src.clone())),
                        None => (String::new(), None),
                    });
                }
                Inherit::Header(text) => {
                    tag.resolved = Some((text.clone(), None));
                    updates.push((tag.name.clone(), text.clone(), Source { game: g, tag: t }, true));
                }
                Inherit::None => {
                    if let Some(v) = &tag.value {
                        updates.push((tag.name.clone(), v.text.clone(), Source { game: g, tag: t }, false));
                    }
                }
            }
            seen.insert(&tag.name);
        }
        for (name, (value, source)) in &header {
            if !seen.contains(&name.as_str()) {
                game.inherited.push(Inherited { name: name.clone(), value: value.clone(), source: source.clone() });
            }
        }
        game.inherited.sort_by(|a, b| a.name.cmp(&b.name));
        for (name, value, source, is_header) in updates {
            if is_header || header.contains_key(&name) {
                header.insert(name.clone(), (value.clone(), source.clone()));
            }
            last.insert(name, (value, source));
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
        let v: Vec<_> = d.games.iter().map(|g| g.value("Event").map(str::to_owned)).collect();
        assert_eq!(v, [Some("A"), Some("A"), None, Some("A"), Some("B"), Some("B")].map(|o| o.map(str::to_owned)));
        let src = d.games[3].tag("Event").unwrap().resolved.clone().unwrap().1.unwrap();
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
        let v: Vec<_> = d.games.iter().map(|g| g.value("Date").unwrap().to_owned()).collect();
        assert_eq!(v, ["2024.01.01", "2024.01.01", "2024.01.02", "2024.01.02"]);
        assert_eq!(d.games[1].inherited[0].source.game, 0);
        assert_eq!(d.games[3].inherited[0].source.game, 2);
    }
}
