fn main() { eprintln!("pbn-gen: not yet written"); std::process::exit(2); }
