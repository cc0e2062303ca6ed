//! `textDocument/publishDiagnostics`: exactly what `pbn check` reports
//! (same code path), with the code, related information and the
//! `Unnecessary` tag for unused notes.

use crate::diagnostic::Severity;
use crate::lsp::snapshot::Snapshot;
use tower_lsp_server::ls_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location, NumberOrString,
};

pub fn to_lsp(snap: &Snapshot) -> Vec<Diagnostic> {
    let conv = snap.converter();
    snap.check()
        .diagnostics
        .iter()
        .map(|d| Diagnostic {
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
        })
        .collect()
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
}
