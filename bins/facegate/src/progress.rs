//! The progress bars of the long `facegate eval` commands, on standard error.

/// A progress bar on standard error for `len` steps; drawn only on a terminal.
pub fn progress(len: usize, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta} left)")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_owned());
    bar
}
