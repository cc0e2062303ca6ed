//! The Contract tag (§3.4.14, §3.10) and denominations.

use super::{is_unknown, issue, trim_padded, Parsed, ValueIssue};
use crate::codes::values as codes;
use contract_bridge::{Bid, Contract, Level, Penalty, Strain};
use std::ops::Range;

/// What the Contract tag value says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContractValue {
    /// `Pass`: all players passed.
    Pass,
    /// `<k><denomination><risk>`.
    Contract(Contract),
    /// End position (§3.10): only the denomination (S, H, D, C, NT).
    EndPosition(Strain),
    /// `""` (inappropriate, §3.4).
    Empty,
}

/// A parsed Contract tag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContractTag {
    pub value: ContractValue,
    /// Some letter was lowercase (legal in import format, §3.11; export
    /// format needs [`ContractTag::export_form`]).
    pub was_lowercase: bool,
}

impl ContractTag {
    /// The export-format spelling: `Pass`, `3NTXX`, `NT`, ``.
    pub fn export_form(&self) -> String {
        match self.value {
            ContractValue::Pass => crate::spec::calls::PASS.into(),
            ContractValue::Empty => String::new(),
            ContractValue::EndPosition(s) => crate::bridge::strain_text(s).into(),
            ContractValue::Contract(c) => crate::bridge::contract_text(c),
        }
    }
}

const RULE: &str = "Contract must be \"Pass\" or <k><denomination><risk>: k 1..7, denomination \
                    S, H, D, C or NT, risk \"\", X or XX (§3.4.14)";

/// A denomination at the start of `s` (offset `off` in the raw value):
/// the strain, its length, whether lowercase, and warnings.
fn strain_prefix(
    s: &str,
    off: usize,
    warnings: &mut Vec<ValueIssue>,
) -> Option<(Strain, usize, bool)> {
    use crate::spec::calls::strain;
    let lower = s.as_bytes().first()?.is_ascii_lowercase();
    let first = s.get(..1).and_then(strain);
    if let Some(n @ 0..=3) = first {
        return Some((crate::bridge::strain_of(n)?, 1, lower));
    }
    if first != Some(4) {
        return None;
    }
    if let Some(nt) = s.get(..2).filter(|t| strain(t) == Some(4)) {
        if nt.as_bytes()[1].is_ascii_lowercase() != lower {
            warnings.push(issue(
                &codes::VALUE_CASE,
                off..off + 2,
                format!("notrump is written \"NT\" or \"nt\" (§3.11), not \"{nt}\""),
            ));
        }
        return Some((Strain::Notrump, 2, lower));
    }
    warnings.push(issue(
        &codes::NONSTANDARD_CONTRACT,
        off..off + 1,
        "read `N` as notrump; PBN writes notrump as \"NT\" (§3.4.14)",
    ));
    Some((Strain::Notrump, 1, lower))
}

/// Parses a Contract tag value (§3.4.14): `Pass`, `<k><denomination><risk>`
/// or, for an end position, a denomination alone (§3.10); `""` gives
/// [`ContractValue::Empty`], `?` no value. Lowercase is clean (§3.11).
/// `3N` and `4SR` (R for redoubled) give [`codes::NONSTANDARD_CONTRACT`];
/// mixed case such as `Nt` gives [`codes::VALUE_CASE`]; everything else that
/// does not match is [`codes::CONTRACT_FORMAT`].
pub fn parse_contract(raw: &str) -> Parsed<ContractTag> {
    if raw.is_empty() {
        return Parsed::ok(ContractTag {
            value: ContractValue::Empty,
            was_lowercase: false,
        });
    }
    if is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Contract", "§3.4.14", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let error = |range: Range<usize>, what: String| {
        issue(&codes::CONTRACT_FORMAT, range, format!("{RULE}; {what}"))
    };

    if s.eq_ignore_ascii_case("pass") {
        let was_lowercase = s == "pass";
        if s != "Pass" && s != "pass" {
            issues.push(issue(
                &codes::VALUE_CASE,
                off..off + s.len(),
                format!("pass is written \"Pass\" or \"pass\" (§3.11), not \"{s}\""),
            ));
        }
        return Parsed::new(
            Some(ContractTag {
                value: ContractValue::Pass,
                was_lowercase,
            }),
            issues,
        );
    }

    let mut warnings = Vec::new();
    let b = s.as_bytes();
    let (level, mut pos) = match b.first() {
        Some(c @ b'0'..=b'9') => match Level::try_new(c - b'0') {
            Ok(l) if !b.get(1).is_some_and(u8::is_ascii_digit) => (Some(l), 1),
            _ => {
                let digits = s.bytes().take_while(u8::is_ascii_digit).count();
                issues.push(error(
                    off..off + digits,
                    format!("the level `{}` is not 1..7", &s[..digits]),
                ));
                return Parsed::new(None, issues);
            }
        },
        _ => (None, 0),
    };
    let Some((strain, len, lower)) = strain_prefix(&s[pos..], off + pos, &mut warnings) else {
        let what = if pos < s.len() {
            format!("`{}` is not a denomination", &s[pos..])
        } else {
            "the denomination is missing".into()
        };
        let end = if pos < s.len() { s.len() } else { pos };
        issues.push(error(
            off + pos.min(s.len().saturating_sub(1))..off + end.max(1),
            what,
        ));
        return Parsed::new(None, issues);
    };
    let mut was_lowercase = lower;
    pos += len;
    let rest = &s[pos..];
    let Some(level) = level else {
        if !rest.is_empty() {
            issues.push(error(
                off + pos..off + s.len(),
                format!("`{rest}` after the denomination of an end position (§3.10)"),
            ));
            return Parsed::new(None, issues);
        }
        issues.extend(warnings);
        return Parsed::new(
            Some(ContractTag {
                value: ContractValue::EndPosition(strain),
                was_lowercase,
            }),
            issues,
        );
    };
    let rest_range = off + pos..off + s.len();
    let penalty = match rest {
        "" => Penalty::Undoubled,
        "X" | "x" => Penalty::Doubled,
        "XX" | "xx" => Penalty::Redoubled,
        "xX" | "Xx" => {
            warnings.push(issue(
                &codes::VALUE_CASE,
                rest_range.clone(),
                format!("redoubled is written \"XX\" or \"xx\" (§3.11), not \"{rest}\""),
            ));
            Penalty::Redoubled
        }
        "R" | "r" => {
            warnings.push(issue(
                &codes::NONSTANDARD_CONTRACT,
                rest_range.clone(),
                "read `R` as redoubled; PBN writes redoubled as \"XX\" (§3.4.14)",
            ));
            Penalty::Redoubled
        }
        _ => {
            issues.push(error(rest_range, format!("`{rest}` is not a risk")));
            return Parsed::new(None, issues);
        }
    };
    was_lowercase |= rest.bytes().any(|c| c.is_ascii_lowercase());
    issues.extend(warnings);
    let contract = Contract {
        bid: Bid { level, strain },
        penalty,
    };
    Parsed::new(
        Some(ContractTag {
            value: ContractValue::Contract(contract),
            was_lowercase,
        }),
        issues,
    )
}

/// Parses a denomination alone (S, H, D, C, NT; lowercase allowed), as in
/// the Denomination column of the OptimumResultTable (§5.7) and the
/// Contract of an end position (§3.10).
pub fn parse_denomination(raw: &str) -> Parsed<Strain> {
    let mut issues = Vec::new();
    let mut warnings = Vec::new();
    match strain_prefix(raw, 0, &mut warnings) {
        Some((strain, len, _)) if len == raw.len() => {
            issues.extend(warnings);
            Parsed::new(Some(strain), issues)
        }
        _ => {
            issues.push(issue(
                &codes::CONTRACT_FORMAT,
                0..raw.len(),
                "a denomination is S, H, D, C or NT (§3.4.14, §5.7)",
            ));
            Parsed::new(None, issues)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    fn contract(raw: &str) -> ContractTag {
        let p = parse_contract(raw);
        assert_clean(&p.issues, raw);
        p.value.unwrap()
    }

    #[test]
    fn valid_contracts() {
        assert_eq!(contract("Pass").value, ContractValue::Pass);
        assert!(contract("pass").was_lowercase);
        assert_eq!(contract("").value, ContractValue::Empty);
        assert_eq!(
            contract("5HX").value,
            ContractValue::Contract(Contract::new(5, Strain::Hearts, Penalty::Doubled))
        );
        let c = contract("3NTx");
        assert_eq!(
            c.value,
            ContractValue::Contract(Contract::new(3, Strain::Notrump, Penalty::Doubled))
        );
        assert!(c.was_lowercase);
        assert_eq!(c.export_form(), "3NTX");
        assert_eq!(contract("7ntxx").export_form(), "7NTXX");
        assert_eq!(contract("1C").export_form(), "1C");
        assert!(!contract("1C").was_lowercase);
        assert_eq!(
            contract("NT").value,
            ContractValue::EndPosition(Strain::Notrump)
        );
        assert_eq!(
            contract("h").value,
            ContractValue::EndPosition(Strain::Hearts)
        );
        assert!(parse_contract("?").value.is_none() && parse_contract("?").issues.is_empty());
    }

    #[test]
    fn errors() {
        for (raw, range) in [
            ("5Hearts", 2..7),
            ("5NoTrump", 2..8),
            ("8S", 0..1),
            ("0S", 0..1),
            ("10NT", 0..2),
            ("3", 0..1),
            ("3Z", 1..2),
            ("3SXXX", 2..5),
            ("SX", 1..2),
            ("P", 0..1),
        ] {
            let p = parse_contract(raw);
            assert_eq!(codes_of(&p.issues), vec!["PBN0315"], "{raw}");
            assert_eq!(p.issues[0].range, range, "{raw}");
            assert!(p.value.is_none(), "{raw}");
        }
    }

    #[test]
    fn nonstandard_contracts() {
        let p = parse_contract("3N");
        assert_eq!(codes_of(&p.issues), vec!["PBN0316"]);
        assert_eq!(p.issues[0].range, 1..2);
        assert_eq!(p.value.unwrap().export_form(), "3NT");
        let p = parse_contract("4SR");
        assert_eq!(codes_of(&p.issues), vec!["PBN0316"]);
        assert_eq!(p.value.unwrap().export_form(), "4SXX");
        let p = parse_contract("3NR");
        assert_eq!(codes_of(&p.issues), vec!["PBN0316", "PBN0316"]);
        let p = parse_contract("3Nt");
        assert_eq!(codes_of(&p.issues), vec!["PBN0325"]);
        assert_eq!(p.value.unwrap().export_form(), "3NT");
        let p = parse_contract("PASS");
        assert_eq!(codes_of(&p.issues), vec!["PBN0325"]);
        assert_eq!(p.value.unwrap().value, ContractValue::Pass);
        let p = parse_contract("2HXx");
        assert_eq!(codes_of(&p.issues), vec!["PBN0325"]);
        let p = parse_contract("4S ");
        assert_eq!(codes_of(&p.issues), vec!["PBN0331"]);
    }

    #[test]
    fn denominations() {
        assert_eq!(parse_denomination("NT").value, Some(Strain::Notrump));
        assert_eq!(parse_denomination("c").value, Some(Strain::Clubs));
        expect(
            &parse_denomination("N").issues,
            &codes::NONSTANDARD_CONTRACT,
        );
        expect(&parse_denomination("1S").issues, &codes::CONTRACT_FORMAT);
        expect(&parse_denomination("").issues, &codes::CONTRACT_FORMAT);
    }
}
