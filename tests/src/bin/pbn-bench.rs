fn main() { eprintln!("pbn-bench: not yet written"); std::process::exit(2); }
