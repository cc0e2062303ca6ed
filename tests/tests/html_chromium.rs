//! The `pbn html` page rendered in a real headless Chromium: each board's
//! diagram present with four hands, red hearts and diamonds, no horizontal
//! overflow on a 375-pixel phone nor at the A4 print width, and a sane PDF
//! page count when printed (`pbn html --pdf`, at most two boards a page).
//!
//! Chromium is `$CHROMIUM` or /usr/bin/chromium (`apt-get install
//! chromium`, as `.ci/install-vscode.sh` does). Without it the test skips
//! loudly, unless `PBN_REQUIRE_EDITORS=1` makes that a failure.

use pbn_tests::binary::pbn_binary;
use pbn_tests::editors::skip;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    let c = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/usr/bin/chromium".into());
    c.is_file().then_some(c)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/show")
        .join(name)
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-html-chromium-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs a command with a timeout; its stdout.
fn output(mut cmd: Command, timeout: Duration) -> String {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).ok();
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!("timed out after {timeout:?}: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

fn headless(chrome: &Path, profile: &Path) -> Command {
    let mut c = Command::new(chrome);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// Measures the page in the browser: a copy with a probe script that writes
/// its findings into the DOM, read back with `--dump-dom`.
const PROBE: &str = r#"<script>
(function () {
  const red = (el) => el && getComputedStyle(el).color;
  const boards = [...document.querySelectorAll('article.board')];
  const over = [...document.querySelectorAll('article.board, table, .deal, .hand')]
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map((e) => e.className || e.tagName);
  const r = {
    width: document.documentElement.clientWidth,
    scrollWidth: document.documentElement.scrollWidth,
    boards: boards.length,
    hands: boards.map((b) => b.querySelectorAll('.deal .hand').length),
    heart: red(document.querySelector('.suit.h')),
    diamond: red(document.querySelector('.suit.d')),
    spade: red(document.querySelector('.suit.s')),
    club: red(document.querySelector('.suit.c')),
    hiddenNames: [...document.querySelectorAll('.vh')].filter((e) => e.getBoundingClientRect().width <= 1).length,
    overflowing: over,
    // Each seat's HCP figure inside its board's compass box.
    hcpOutside: [...document.querySelectorAll('.compass')].flatMap((box) => {
      const b = box.getBoundingClientRect();
      return [...box.querySelectorAll('span')]
        .filter((s) => {
          // The text's box: a grid item's own box is its cell, however
          // far its lines overflow it.
          const g = document.createRange();
          g.selectNodeContents(s);
          const r = g.getBoundingClientRect();
          return r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5 || r.right > b.right + 0.5;
        })
        .map((s) => s.className);
    }),
    problemsOpen: [...document.querySelectorAll('details.problems')].filter((d) => d.open).length,
  };
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
</script></body>"#;

fn measure(chrome: &Path, page: &Path, width: u32, dir: &Path) -> Value {
    let html = std::fs::read_to_string(page).unwrap();
    let probe = dir.join(format!("probe-{width}.html"));
    std::fs::write(&probe, html.replace("</body>", PROBE)).unwrap();
    let mut cmd = headless(chrome, &dir.join(format!("profile-{width}")));
    cmd.arg(format!("--window-size={width},900"))
        .arg("--dump-dom")
        .arg(format!("file://{}", probe.display()));
    let dom = output(cmd, Duration::from_secs(90));
    let start = dom.find("<pre id=\"probe\">").expect("probe ran") + 16;
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

fn pbn_html(input: &Path, out: &Path, pdf: Option<&Path>, chrome: &Path) {
    let mut cmd = Command::new(pbn_binary());
    cmd.arg("html").arg(input).arg("-o").arg(out);
    if let Some(p) = pdf {
        cmd.arg("--pdf").arg(p);
    }
    let o = cmd.env("CHROMIUM", chrome).output().unwrap();
    assert!(
        o.status.success(),
        "pbn html: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Pages of a PDF as Chromium writes it (one `/Type /Page` object each).
fn pdf_pages(pdf: &Path) -> usize {
    let bytes = std::fs::read(pdf).unwrap();
    let s = String::from_utf8_lossy(&bytes);
    s.match_indices("/Type /Page")
        .filter(|(i, m)| !s[i + m.len()..].starts_with('s'))
        .count()
}

fn check_layout(m: &Value, boards: usize, what: &str) {
    assert_eq!(m["boards"], boards, "{what}: {m}");
    for h in m["hands"].as_array().unwrap() {
        assert_eq!(h, 4, "{what}: each board's diagram has four hands: {m}");
    }
    assert_eq!(m["heart"], "rgb(200, 16, 46)", "{what}: {m}");
    assert_eq!(m["diamond"], "rgb(200, 16, 46)", "{what}: {m}");
    assert_ne!(m["spade"], m["heart"], "{what}: {m}");
    assert_ne!(m["club"], m["heart"], "{what}: {m}");
    assert!(
        m["scrollWidth"].as_u64() <= m["width"].as_u64(),
        "{what}: horizontal overflow: {m}"
    );
    assert_eq!(m["overflowing"].as_array().unwrap().len(), 0, "{what}: {m}");
    assert_eq!(
        m["hcpOutside"].as_array().unwrap().len(),
        0,
        "{what}: HCP figures outside the compass box: {m}"
    );
    assert_eq!(
        m["problemsOpen"], 0,
        "{what}: the Problems list is folded: {m}"
    );
    assert!(m["hiddenNames"].as_u64().unwrap() > 0, "{what}: {m}");
}

#[test]
fn html_page_in_headless_chromium() {
    let Some(chrome) = chromium() else {
        skip(
            "chromium not found",
            "apt-get install chromium, or set CHROMIUM",
        );
        return;
    };
    let dir = scratch();
    let page = dir.join("records.html");
    let pdf = dir.join("records.pdf");
    pbn_html(&fixture("full_record.pbn"), &page, Some(&pdf), &chrome);
    // A phone, a desktop, and the width of A4 less the print margins
    // (186 mm at 96 px per inch).
    for width in [375, 1024, 703] {
        let m = measure(&chrome, &page, width, &dir);
        check_layout(&m, 2, &format!("{width} px"));
    }
    // Two boards fit one A4 page; never more than one page a board.
    let pages = pdf_pages(&pdf);
    assert!((1..=2).contains(&pages), "{pages} PDF pages for 2 boards");

    // A real file of many boards with commentary, when the corpus is here.
    if let Some(corpus) = pbn_tests::corpus::corpus_dir() {
        let big = corpus.join("richardschneider-pbn/Hand_Trophy_Pairs.pbn");
        if big.is_file() {
            let page = dir.join("corpus.html");
            let pdf = dir.join("corpus.pdf");
            pbn_html(&big, &page, Some(&pdf), &chrome);
            let m = measure(&chrome, &page, 375, &dir);
            let boards = m["boards"].as_u64().unwrap() as usize;
            assert!(boards > 10, "{m}");
            check_layout(&m, boards, "corpus at 375 px");
            let pages = pdf_pages(&pdf);
            assert!(
                pages >= boards.div_ceil(2) && pages <= boards * 2,
                "{pages} PDF pages for {boards} boards"
            );
        }
    }
    // The screenshot at phone width renders.
    let shot = dir.join("phone.png");
    let mut cmd = headless(&chrome, &dir.join("profile-shot"));
    cmd.arg("--window-size=375,1400")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()));
    output(cmd, Duration::from_secs(90));
    let png = std::fs::read(&shot).expect("screenshot written");
    assert_eq!(&png[1..4], b"PNG");
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 375);
    let _ = std::fs::remove_dir_all(&dir);
}
