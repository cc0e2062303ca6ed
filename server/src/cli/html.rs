use clap::Args;
use pbn_core::render;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Write the games of a file as one self-contained HTML page of hand records.
///
/// One record per board: diagram with HCP, auction grid and notes, contract
/// and result, play, double-dummy table and par when the file has them,
/// commentary, and the game's errors. Inline CSS, no script, no network;
/// suit symbols have text alternatives; one column on a phone; printing
/// puts one or two boards on each A4 page. `--pdf` prints the page to PDF
/// through a headless Chromium. With --dd, the double-dummy solver adds the
/// table and par (when the file has none), the opening leads, and marks
/// each card that gave tricks away (`−1`).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn html examples/schiphol.pbn -o schiphol.html\n  pbn html examples/schiphol.pbn > schiphol.html\n  pbn html games.pbn -o records.html --pdf records.pdf\n  pbn html games.pbn --board 3 -o board3.html\n  pbn html played.pbn --dd -o analysed.html\n\nPDF output needs Chromium (Debian/Ubuntu: apt-get install chromium; or set CHROMIUM=/path/to/chrome)."
)]
pub struct HtmlArgs {
    /// The PBN file; `-` reads standard input.
    path: PathBuf,
    /// Where to write the page (standard output without it, or with `-`).
    #[arg(short, long, value_name = "OUT.html")]
    output: Option<PathBuf>,
    /// Also print the page to this PDF file with headless Chromium.
    #[arg(long, value_name = "OUT.pdf")]
    pdf: Option<PathBuf>,
    /// Only the games whose Board tag is N.
    #[arg(long, value_name = "N")]
    board: Option<String>,
    /// Solve: the double-dummy table and par when the file has none, the
    /// opening leads, and the tricks each card played gave away.
    #[arg(long)]
    dd: bool,
}

pub fn run(args: HtmlArgs) -> ExitCode {
    let (name, records) = match super::show::records(&args.path, args.board.as_deref(), args.dd) {
        Ok(r) => r,
        Err((e, status)) => {
            errln!("error: {e}");
            return ExitCode::from(status);
        }
    };
    let output = args.output.filter(|o| o.as_os_str() != "-");
    if args.pdf.is_some() && output.is_none() {
        errln!("error: --pdf needs the page in a file: give -o OUT.html");
        return ExitCode::from(2);
    }
    let title = Path::new(&name)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or(name);
    let page = render::html::page(&render::html::title(&records, &title), &records);
    match &output {
        None => out!("{page}"),
        Some(o) => {
            if let Err(e) = std::fs::write(o, &page) {
                errln!("error: {}: {}", o.display(), super::write::message(&e));
                return ExitCode::from(2);
            }
        }
    }
    if let Some(pdf) = &args.pdf {
        if let Some(o) = &output {
            return print_pdf(o, pdf);
        }
    }
    ExitCode::SUCCESS
}

/// The Chromium to print with: `$CHROMIUM`, else the usual names on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("CHROMIUM").filter(|c| !c.is_empty()) {
        return Some(PathBuf::from(c));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
    .find(|p| p.is_file())
}

fn print_pdf(html: &Path, pdf: &Path) -> ExitCode {
    let Some(chrome) = chromium() else {
        errln!(
            "error: --pdf needs Chromium, and none was found (looked for $CHROMIUM, chromium, \
             chromium-browser, google-chrome on PATH).\n  \
             Debian/Ubuntu: sudo apt-get install chromium\n  \
             Fedora: sudo dnf install chromium\n  \
             macOS: install Google Chrome, then CHROMIUM=\"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome\"\n  \
             or open the HTML page in a browser and print it to PDF."
        );
        return ExitCode::from(2);
    };
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let profile = std::env::temp_dir().join(format!("pbn-html-chromium-{}", std::process::id()));
    let status = Command::new(&chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", abs(pdf).display()))
        .arg(format!("file://{}", abs(html).display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    let _ = std::fs::remove_dir_all(&profile);
    match status {
        Ok(s) if s.success() && pdf.is_file() => ExitCode::SUCCESS,
        Ok(s) => {
            errln!(
                "error: {} failed ({s}) printing {}",
                chrome.display(),
                pdf.display()
            );
            ExitCode::from(1)
        }
        Err(e) => {
            errln!("error: {}: {e}", chrome.display());
            ExitCode::from(2)
        }
    }
}
