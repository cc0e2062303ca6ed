use clap::Args;
use pbn_core::codes::{all, lookup, POLICY};
use std::process::ExitCode;

/// Print the long explanation of a diagnostic code, the list of codes or
/// the severity policy (what makes a code an error, a warning or info).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn explain PBN0003\n  pbn explain unterminated-string\n  pbn explain --list\n  pbn explain --policy"
)]
pub struct ExplainArgs {
    /// The code (`PBN0003`, `3`) or the rule name (`unterminated-string`).
    #[arg(required_unless_present_any = ["list", "policy"])]
    code: Option<String>,
    /// List every code with its severity, category and summary.
    #[arg(long)]
    list: bool,
    /// Print the severity policy: when a code is an error, a warning or
    /// info, and how pbn.toml changes it.
    #[arg(long, conflicts_with_all = ["list", "code"])]
    policy: bool,
}

pub fn run(args: ExplainArgs) -> ExitCode {
    if args.policy {
        out!("{POLICY}");
        return ExitCode::SUCCESS;
    }
    if args.list {
        for c in all() {
            outln!(
                "{}  {:<8} {:<12} {:<28} {}",
                c.code,
                c.severity.name(),
                c.category.name(),
                c.name,
                c.summary
            );
        }
        return ExitCode::SUCCESS;
    }
    let q = args.code.unwrap_or_default();
    let Some(c) = lookup(&q) else {
        errln!("error: unknown diagnostic code `{q}` (see `pbn explain --list`)");
        return ExitCode::from(2);
    };
    outln!(
        "{} {} ({}, {}, PBN 2.1 {})\n",
        c.code,
        c.name,
        c.severity.name(),
        c.category.name(),
        c.section
    );
    outln!("{}\n", c.summary);
    outln!("{}\n", c.explanation);
    outln!("Fails:\n{}", indent(c.bad));
    outln!("Passes:\n{}", indent(c.good));
    ExitCode::SUCCESS
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}
