//! The one owner of skillpm's output (uv's `Printer` idea): report data on
//! stdout, messages, errors and progress bars on stderr, and prompts. Nothing
//! else in the crate writes to the terminal.
//!
//! Rules: data goes to stdout (`--json` or the human report); human messages
//! go to stderr and `--quiet` silences them (never errors); colour follows
//! `--color`, and under `auto` needs a terminal and no `NO_COLOR`; bars only
//! when stderr is a terminal and not `--quiet`; prompts only when stdin and
//! stderr are terminals, otherwise a prompt is an error naming the flag that
//! answers it. A reader that goes away (`skillpm list --json | head -c1`) is
//! not an error: the data is simply no longer wanted.
//!
//! Every text it shows is a [`Shown`]: made from a `String` it is escaped
//! (`crate::escape::escape`), so text from a skill, index, lock or server
//! cannot move the cursor, erase lines, set the clipboard or reorder what
//! is read, whichever call site forgot about it. Its own colours are the
//! only raw sequences (`paint`).

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::error::{Exit, OpError};
use crate::escape::Shown;

/// A report's text on its way to stdout: each whole line escaped as a
/// [`Shown`] (line feeds and tabs kept), the last one when finished.
struct EscapedLines<W: Write> {
    out: W,
    /// The start of a line not ended yet.
    pending: Vec<u8>,
}

impl<W: Write> EscapedLines<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        let text = Shown::from(String::from_utf8_lossy(bytes).into_owned());
        self.out.write_all(text.as_str().as_bytes())
    }

    fn finish(mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.pending);
        self.put(&rest)?;
        self.out.flush()
    }
}

impl<W: Write> Write for EscapedLines<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some(end) = buf.iter().rposition(|&b| b == b'\n') else {
            self.pending.extend_from_slice(buf);
            return Ok(buf.len());
        };
        // A line feed never sits inside a UTF-8 sequence: what is cut here is
        // whole characters.
        let (lines, rest) = buf.split_at(end + 1);
        if self.pending.is_empty() {
            self.put(lines)?;
        } else {
            let mut head = std::mem::take(&mut self.pending);
            head.extend_from_slice(lines);
            self.put(&head)?;
        }
        self.pending.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[derive(Debug, Clone)]
pub struct Printer {
    pub quiet: bool,
    pub json: bool,
    pub color: bool,
    /// Bars may be drawn (stderr is a terminal, not quiet).
    pub progress: bool,
    /// Questions may be asked (stdin and stderr are terminals, stdout not redirected).
    pub interactive: bool,
    /// `-v/--verbose`: errors show their causes.
    pub verbose: bool,
    /// Flags as messages name them generically → as the user typed them
    /// (`install --frozen` implies `--offline`; `--locked/--frozen` is one
    /// of the two): errors name the flag the user passed.
    pub flag_words: Vec<(&'static str, &'static str)>,
}

impl Printer {
    /// Detects the terminal situation of this process. `color`: `Some` when
    /// the person chose (`--color always|never`), `None` for automatic.
    pub fn detect(quiet: bool, json: bool, color: Option<bool>) -> Self {
        let stderr_tty = std::io::stderr().is_terminal();
        let stdin_tty = std::io::stdin().is_terminal();
        let stdout_tty = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = color.unwrap_or(stderr_tty && !no_color);
        Printer {
            quiet,
            json,
            color,
            progress: stderr_tty && !quiet,
            interactive: stdin_tty && stderr_tty && stdout_tty,
            verbose: false,
            flag_words: Vec::new(),
        }
    }

    /// One `warning:` line: a line break inside the message (a value from
    /// an index or a server that carries one) is shown escaped, so a
    /// warning cannot start a line that looks like the program's.
    pub fn warn(&self, message: impl Into<Shown>) {
        if !self.quiet {
            let label = self.paint("warning", "33");
            eprintln!("{label}: {}", message.into().one_line());
        }
    }

    pub fn info(&self, message: impl Into<Shown>) {
        if !self.quiet {
            eprintln!("{}", message.into());
        }
    }

    /// A status line in cargo's style: a right-aligned green verb, then text.
    pub fn status(&self, verb: &'static str, message: impl Into<Shown>) {
        if !self.quiet {
            let verb = self.paint(&format!("{verb:>12}"), "1;32");
            eprintln!("{verb} {}", message.into());
        }
    }

    /// Writes a human report to stdout as `write` makes it (nothing under
    /// `--quiet`), escaped as a [`Shown`] made from the whole text would be,
    /// one line at a time ([`crate::escape::escape`] judges each character
    /// on its own), through one buffer: a long listing is never held whole
    /// (docs/performance.md, the 50,000-skill index). A closed stdout
    /// returns `Ok(false)` (see [`Printer::json`]).
    pub fn report(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<bool> {
        let stdout = io::stdout().lock();
        let mut out = EscapedLines {
            out: io::BufWriter::with_capacity(64 * 1024, stdout),
            pending: Vec::new(),
        };
        let written = if self.quiet { Ok(()) } else { write(&mut out) };
        match written.and_then(|()| out.finish()) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Writes JSON report data to stdout in one piece. `serde_json` escapes
    /// C0 controls inside strings; [`crate::escape::json_safe`] escapes every
    /// other character a terminal must not get raw (C1, bidi, zero-width,
    /// tags) as `\uXXXX`, so `--json | cat` is as safe as the human report
    /// and the data is unchanged. A closed stdout (the reader went away)
    /// returns `Ok(false)` so the caller can end quietly.
    pub fn json<T: serde::Serialize + ?Sized>(&self, value: &T) -> io::Result<bool> {
        let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
        let mut text = crate::escape::json_safe(text);
        text.push('\n');
        self.write_stdout(text.as_bytes())
    }

    fn write_stdout(&self, bytes: &[u8]) -> io::Result<bool> {
        let mut out = io::stdout().lock();
        match out.write_all(bytes).and_then(|()| out.flush()) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// `error: <outermost>` (what failed and where, why, what to do: the
    /// messages say them), then each cause on a `caused by:` line, said
    /// once: a cause whose words the lines above already hold is left out,
    /// and the libraries' own words (`net::Detail`) only with `--verbose`. Shown even under `--quiet`; coloured by the
    /// same rule as the rest. With `--json`, the error is also one JSON
    /// object on stdout, `{"error": {"code": N, "message": "…"}}`
    /// (docs/output.md), so a script reading stdout always gets JSON.
    pub fn error(&self, err: &anyhow::Error, exit: Exit) {
        let label = self.paint("error", "1;31");
        // `{err}` is the outermost message only; the chain adds the causes.
        let flag = |text: String| {
            (self.flag_words.iter())
                .fold(text, |text, (generic, typed)| text.replace(generic, typed))
        };
        let mut said = flag(err.to_string());
        let mut text = label;
        text.push(format!(": {said}\n"));
        for cause in err.chain().skip(1) {
            let internal = cause.downcast_ref::<crate::net::Detail>().is_some();
            let words = flag(cause.to_string());
            if (internal && !self.verbose) || said.contains(&words) {
                continue;
            }
            text.push(format!("  caused by: {words}\n"));
            said.push_str(&words);
        }
        // Nothing sensible is left to do if stderr itself is gone.
        let _ = io::stderr().lock().write_all(text.as_str().as_bytes());
        if self.json {
            let object = serde_json::json!({
                "error": {"code": exit.code(), "message": flag(err.to_string())}
            });
            let _ = self.json(&object);
        }
    }

    /// What a fetcher calls before each retry: a spinner naming the URL,
    /// why and the attempt on a terminal (cleared when the attempt starts),
    /// else one short line on stderr naming the URL and the attempt; the
    /// reason is said once, by the error if the retries run out (nothing
    /// under `--quiet`; docs/network.md).
    pub fn retry_notices(&self) -> crate::net::OnRetry {
        let ui = self.clone();
        std::sync::Arc::new(move |n: &crate::net::RetryNotice| {
            if ui.quiet {
                return;
            }
            let attempt = format!(
                "attempt {} of {} in {:.1}s",
                n.next_attempt,
                n.attempts,
                n.delay.as_secs_f64()
            );
            if !ui.progress {
                ui.status("Retrying", format!("{} ({attempt})", n.url));
                return;
            }
            let line = format!("{}: {}; {attempt}", n.url, n.why);
            let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            spinner.set_style(
                ProgressStyle::with_template("{spinner:.cyan} {prefix:.cyan.bold} {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            spinner.set_prefix("Retrying");
            spinner.set_message(line);
            spinner.enable_steady_tick(Duration::from_millis(100));
            let delay = n.delay;
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                spinner.finish_and_clear();
            });
        })
    }

    /// `text` in the SGR style `sgr` when colour is on (`text` escaped).
    pub fn paint(&self, text: &str, sgr: &'static str) -> Shown {
        Shown::styled(text, sgr, self.color)
    }

    /// A bar counting `len` units (bytes when `bytes`), hidden when not allowed.
    pub fn bar(&self, len: u64, message: impl Into<String>, bytes: bool) -> ProgressBar {
        if !self.progress {
            return ProgressBar::hidden();
        }
        // The label once (as the prefix); the message is the bar's own
        // (a download batch writes its bytes and rate there). The bar
        // starts ticking only when its owner knows its length, so no `0/0`
        // frame is drawn first.
        let template = if bytes {
            "{spinner:.cyan} {prefix:>12.cyan.bold} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}"
        } else {
            "{spinner:.cyan} {prefix:>12.cyan.bold} [{bar:30}] {pos}/{len} {wide_msg}"
        };
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        bar.set_style(style);
        bar.set_prefix(message.into());
        if len > 0 {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        bar
    }

    /// Lets the person pick several of `options` (type to filter); refuses
    /// when it cannot be asked, naming `flag`.
    pub fn pick_many(
        &self,
        prompt: &str,
        options: Vec<String>,
        flag: &str,
    ) -> Result<Vec<String>, OpError> {
        // Options come from sources: shown escaped, answered as given.
        let shown: Vec<String> = options
            .iter()
            .map(|o| crate::escape::printable(o))
            .collect();
        if !self.interactive {
            return Err(OpError::new(
                Exit::Usage,
                format!("nothing to choose from without a terminal: {flag}"),
            ));
        }
        inquire::MultiSelect::new(prompt, shown)
            .with_page_size(15)
            .raw_prompt()
            .map(|picked| {
                picked
                    .into_iter()
                    .map(|p| options[p.index].clone())
                    .collect()
            })
            .map_err(|e| OpError::new(Exit::Usage, format!("selection cancelled ({e}); {flag}")))
    }

    /// Asks a yes/no question; refuses when it cannot be asked, naming `flag`.
    pub fn confirm(&self, prompt: &str, flag: &str) -> Result<bool, OpError> {
        if !self.interactive {
            return Err(OpError::new(
                Exit::Approval,
                format!(
                    "approval required but no terminal to ask on: review the summary above and pass `{flag}` to approve it"
                ),
            ));
        }
        let prompt = Shown::from(prompt).to_string();
        inquire::Confirm::new(&prompt)
            .with_default(false)
            .prompt()
            .map_err(|e| OpError::new(Exit::Approval, format!("prompt failed: {e}; pass `{flag}`")))
    }
}
