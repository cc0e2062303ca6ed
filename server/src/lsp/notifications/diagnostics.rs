//! `textDocument/publishDiagnostics`: exactly what `pbn check` reports
//! (same code path), with the code, related information and the
//! `Unnecessary` tag for unused notes.

use crate::diagnostic::Severity;
use crate::lsp::convert::Converter;
use crate::lsp::snapshot::Snapshot;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use tower_lsp_server::ls_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location, NumberOrString,
};

pub fn to_lsp(snap: &Snapshot) -> Vec<Diagnostic> {
    let conv = snap.converter();
    snap.check().diagnostics.iter().map(|d| one(snap, &conv, d)).collect()
}

fn one(snap: &Snapshot, conv: &Converter<'_>, d: &crate::diagnostic::Diagnostic) -> Diagnostic {
    Diagnostic {
            range: conv.range(d.range.clone()),
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Info => DiagnosticSeverity::INFORMATION,
                Severity::Hint => DiagnosticSeverity::HINT,
            }),
            code: Some(NumberOrString::String(d.code.code.to_owned())),
            code_description: None,
            source: Some("pbn".into()),
            message: format!("{} [{}]", d.message, d.code.name),
            related_information: (!d.related.is_empty()).then(|| {
                d.related
                    .iter()
                    .map(|r| DiagnosticRelatedInformation {
                        location: Location { uri: snap.uri.clone(), range: conv.range(r.range.clone()) },
                        message: r.message.clone(),
                    })
                    .collect()
            }),
            tags: d.unnecessary.then(|| vec![DiagnosticTag::UNNECESSARY]),
            data: None,
    }
}

/// Serialised diagnostics of earlier publications, by a hash of everything
/// that appears in their JSON. An edit changes few diagnostics, and
/// serialising 20,000 of them again (most of an edit's time at that size)
/// would dwarf the check itself: the JSON of a diagnostic whose LSP range,
/// code, severity, message, related information and tags are unchanged is
/// reused as is.
#[derive(Default)]
pub struct JsonCache {
    map: HashMap<u64, Arc<str>>,
}

/// The body of the `textDocument/publishDiagnostics` notification of this
/// snapshot (a JSON-RPC message, without the frame header), built from the
/// JSON of each diagnostic; `cache` lends what earlier publications
/// serialised and is replaced by what this one used.
pub fn publish_json(snap: &Snapshot, cache: &mut JsonCache) -> String {
    let conv = snap.converter();
    let check = snap.check();
    let mut next = HashMap::with_capacity(check.diagnostics.len());
    let mut parts: Vec<Arc<str>> = Vec::with_capacity(check.diagnostics.len());
    let mut hint = 0;
    for d in &check.diagnostics {
        let range = conv.range_near(d.range.clone(), &mut hint);
        let related: Vec<_> = d.related.iter().map(|r| (conv.range(r.range.clone()), r.message.as_str())).collect();
        let mut h = DefaultHasher::new();
        (range.start.line, range.start.character, range.end.line, range.end.character).hash(&mut h);
        (d.severity as u8, d.code.code, d.code.name, d.message.as_str(), d.unnecessary).hash(&mut h);
        for (r, m) in &related {
            (r.start.line, r.start.character, r.end.line, r.end.character, m).hash(&mut h);
        }
        let key = h.finish();
        let json = match next.get(&key).or_else(|| cache.map.get(&key)) {
            Some(j) => Arc::clone(j),
            None => {
                let lsp = one(snap, &conv, d);
                Arc::from(serde_json::to_string(&lsp).expect("a diagnostic serialises"))
            }
        };
        next.insert(key, json.clone());
        parts.push(json);
    }
    cache.map = next;
    let uri = serde_json::to_string(&snap.uri).expect("a URI serialises");
    let mut out = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum::<usize>() + uri.len() + 128);
    out.push_str(r#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"#);
    out.push_str(&uri);
    out.push_str(&format!(r#","version":{},"diagnostics":["#, snap.version));
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(p);
    }
    out.push_str("]}}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot;

    #[test]
    fn codes_related_information_and_unnecessary_tag() {
        let text = "[Room \"Open\"]\n[Room \"Closed\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C AP\n[Note \"1:unused\"]\n";
        let snap = snapshot(text);
        let diags = to_lsp(&snap);
        let dup = diags.iter().find(|d| d.code == Some(NumberOrString::String("PBN0202".into()))).unwrap();
        assert_eq!(dup.severity, Some(DiagnosticSeverity::ERROR));
        assert_eq!(dup.related_information.as_ref().unwrap()[0].location.range.start.line, 0);
        let unused = diags.iter().find(|d| d.code == Some(NumberOrString::String("PBN0710".into()))).unwrap();
        assert_eq!(unused.tags, Some(vec![DiagnosticTag::UNNECESSARY]));
        insta::assert_debug_snapshot!(diags.iter().map(|d| (d.range, d.code.clone(), d.message.clone())).collect::<Vec<_>>());
    }

    /// The JSON built from cached pieces is the notification serde would
    /// write for the typed diagnostics, on a first publication and on one
    /// that reuses the cache after an edit.
    #[test]
    fn publish_json_equals_the_typed_notification() {
        use tower_lsp_server::ls_types::PublishDiagnosticsParams;
        let text = "[Room \"Open\"]\n[Room \"Closed\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C AP\n[Note \"1:unüsed 😀\"]\n\n[Board \"x\"]\n";
        let mut cache = JsonCache::default();
        for text in [text.to_owned(), text.replace("Closed", "Shut")] {
            let snap = snapshot(&text);
            let built: serde_json::Value = serde_json::from_str(&publish_json(&snap, &mut cache)).unwrap();
            let params = PublishDiagnosticsParams { uri: snap.uri.clone(), diagnostics: to_lsp(&snap), version: Some(snap.version) };
            let typed = serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params});
            assert_eq!(built, typed);
            assert!(!cache.map.is_empty());
        }
    }
}
