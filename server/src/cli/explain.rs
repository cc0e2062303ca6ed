use clap::Args;
use pbn_core::codes::{all, lookup};
use std::process::ExitCode;

/// Print the long explanation of a diagnostic code.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn explain PBN0003\n  pbn explain unterminated-string\n  pbn explain --list"
)]
pub struct ExplainArgs {
    /// The code (`PBN0003`, `3`) or the rule name (`unterminated-string`).
    #[arg(required_unless_present = "list")]
    code: Option<String>,
    /// List every code with its summary.
    #[arg(long)]
    list: bool,
}

pub fn run(args: ExplainArgs) -> ExitCode {
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
