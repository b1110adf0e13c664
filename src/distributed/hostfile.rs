//! The hostfile of a cluster: one `host:port` a line, one line a process, in the order of the
//! processes' indices (`--process`). Blank lines and `#` comments are skipped.

use std::path::Path;

/// The processes' addresses listed in `path`.
pub fn read(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|(line, why)| format!("{}:{line}: {why}", path.display()))
}

/// The addresses in a hostfile's text, or the line (1-based) that is not one and why.
pub fn parse(text: &str) -> Result<Vec<String>, (usize, String)> {
    let mut addresses = Vec::new();
    for (number, line) in (1..).zip(text.lines()) {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let port = line
            .rsplit_once(':')
            .map(|(host, port)| (host, port.parse::<u16>()));
        match port {
            Some((host, Ok(_))) if !host.is_empty() && !line.contains(char::is_whitespace) => {
                addresses.push(line.to_string())
            }
            _ => {
                return Err((
                    number,
                    format!("expected one `host:port` (e.g. 127.0.0.1:4100), found `{line}`"),
                ));
            }
        }
    }
    if addresses.is_empty() {
        return Err((
            1,
            "no `host:port` line: a hostfile lists one per process".into(),
        ));
    }
    Ok(addresses)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn lines_are_addresses_comments_and_blanks_skipped() {
        let text = "# two processes\n127.0.0.1:4100\n\nnode-2.example:4100  # the second\n";
        assert_eq!(
            parse(text),
            Ok(vec!["127.0.0.1:4100".into(), "node-2.example:4100".into()])
        );
        assert_eq!(parse("[::1]:80\n").unwrap(), vec!["[::1]:80".to_string()]);
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, line) in [
            ("127.0.0.1:4100\nlocalhost\n", 2),
            ("127.0.0.1:port\n", 1),
            (":4100\n", 1),
            ("a b:4100\n", 1),
            ("\n# nothing\n", 1),
        ] {
            assert_eq!(parse(text).unwrap_err().0, line, "{text:?}");
        }
    }
}
