//! No input makes the checker or the dump panic: deterministic mutations of
//! every corpus file. (Hostile inputs, each a test: `hostile.rs`.)

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::text::decode;
use pbn_tests::corpus::{corpus_dir, corpus_files};

fn run_all(bytes: &[u8]) {
    let source = decode(bytes);
    for export in [false, true] {
        let _ = check_text(
            &source,
            &CheckOptions {
                export,
                ..Default::default()
            },
        );
    }
    let tree = pbn_core::syntax::parse_pieces(&source.text);
    let doc = pbn_core::model::lower(&tree, &source.text);
    let _ = pbn_core::model::dump::dump(&doc, &source.text);
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&[u8]] = &[
    b"\n",
    b"\r\n",
    b"\n\n",
    b"{",
    b"}",
    b"\"",
    b"[",
    b"]",
    b"%",
    b";",
    b" ",
    b"\t",
    b"=1=",
    b"=a=",
    b"$3",
    b"$999999999999",
    b"!!!",
    b"^I",
    b"^S",
    b"^R",
    b"^L",
    b"^",
    b"*",
    b"+",
    b"-",
    b"#",
    b"##x",
    b"Pass",
    b"AP",
    b"X",
    b"XX",
    b"7NT",
    b"1N",
    b"SA",
    b"S10",
    b"--",
    b"[Auction \"N\"]",
    b"[Play \"W\"]",
    b"[Note \"1:x\"]",
    b"[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]",
    b"[Contract \"7NT\"]",
    b"[Declarer \"^S\"]",
    b"\xff",
    b"\xc3\xa9",
    b"\x00",
    b"\x93",
    b"\xef\xbb\xbf",
    b"\xf0\x9f\x82\xa1",
];

#[test]
fn mutated_corpus_files_never_panic() {
    let Some(dir) = corpus_dir() else { return };
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut cases = 0;
    for rel in corpus_files(&dir) {
        let original = std::fs::read(dir.join(&rel)).unwrap();
        if original.len() > 100_000 {
            continue;
        }
        for round in 0..12 {
            let mut bytes = original.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(3) {
                    0 => {
                        let end = (at + rng.below(40)).min(bytes.len());
                        bytes.drain(at..end);
                    }
                    1 => {
                        let p = PIECES[rng.below(PIECES.len())];
                        bytes.splice(at..at, p.iter().copied());
                    }
                    _ => {
                        let end = (at + rng.below(200)).min(bytes.len());
                        let copy = bytes[at..end].to_vec();
                        let to = rng.below(bytes.len() + 1);
                        bytes.splice(to..to, copy);
                    }
                }
            }
            let result = std::panic::catch_unwind(|| run_all(&bytes));
            if result.is_err() {
                let path = std::env::temp_dir().join(format!(
                    "pbn-panic-{}-{round}.pbn",
                    rel.display().to_string().replace('/', "_")
                ));
                std::fs::write(&path, &bytes).unwrap();
                panic!(
                    "panic on a mutation of {} (saved to {})",
                    rel.display(),
                    path.display()
                );
            }
            cases += 1;
        }
    }
    assert!(cases > 400);
}
