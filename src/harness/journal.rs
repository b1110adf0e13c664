//! An append-only journal of finished work, so that a long run that stops, in any way, goes on
//! where it stopped when it is started again. The file is a header line that names the run (the
//! work asked, and the build), then one JSON record per finished unit of work, each written by
//! one `write` of its whole line as the unit finishes: a run stopped by Ctrl-C, a limit, a
//! crash or `kill -9` leaves every record it finished. Only the last line can be torn (a process
//! killed in the middle of that write); a last line without its line break is dropped, and the
//! file is cut back to the last whole record before anything more is appended.
//!
//! A journal is refused, with a message that says why, when it was written for other work (its
//! records would answer another question), or by another build unless the caller accepts that
//! (a unit's answer should not depend on the build, but a fix between the two may change it).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A journal's first line.
#[derive(Debug, Serialize, Deserialize)]
struct Header<W> {
    /// What the run was asked, as the command that owns the journal describes it.
    work: W,
    /// The build that wrote it (its commit).
    build: String,
}

/// An open journal, appended to from any thread.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

/// What [`Journal::open`] found.
pub struct Opened<R> {
    pub journal: Journal,
    /// The records of the units a stopped run finished, in the order they finished.
    pub records: Vec<R>,
    /// Whether a torn last record was dropped.
    pub dropped_torn: bool,
}

impl Journal {
    /// Opens the journal at `path` for `work`, creating it (and its folder) when missing, and
    /// reads the records a stopped run of the same work left there. `any_build`: accept a
    /// journal that another build wrote. The error names the file and says what is wrong.
    pub fn open<W, R>(path: &Path, work: &W, any_build: bool) -> Result<Opened<R>, String>
    where
        W: Serialize + DeserializeOwned + PartialEq,
        R: DeserializeOwned,
    {
        let shown = path.display();
        let build = env!("FRONTIER_COMMIT");
        let text = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("journal {shown}: {e}")),
        };
        // Whole lines only: what follows the last line break is a torn record (or header).
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let dropped_torn = whole < text.len() && whole > 0;
        let mut records = Vec::new();
        if whole > 0 {
            let text = std::str::from_utf8(&text[..whole])
                .map_err(|_| format!("journal {shown}: not a frontier journal (not UTF-8)"))?;
            let mut lines = text.lines();
            let header: Header<W> = lines
                .next()
                .and_then(|line| serde_json::from_str(line).ok())
                .ok_or_else(|| format!("journal {shown}: line 1: not a frontier journal header"))?;
            if header.work != *work {
                return Err(format!(
                    "journal {shown} belongs to other work ({}), not this run's ({}); remove it, \
                     or give this run a journal of its own",
                    json(&header.work),
                    json(work)
                ));
            }
            if header.build != build && !any_build {
                return Err(format!(
                    "journal {shown} was written by build {}, this is build {build}: a fix \
                     between them may change a unit's answer. Remove it to start again, or \
                     accept its records with --resume-any-build",
                    header.build
                ));
            }
            for (i, line) in lines.enumerate() {
                let record = serde_json::from_str(line)
                    .map_err(|e| format!("journal {shown}: line {}: {e}", i + 2))?;
                records.push(record);
            }
        }
        let created = || -> io::Result<File> {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir)?;
            }
            let mut file = OpenOptions::new().create(true).append(true).open(path)?;
            if whole == 0 {
                // A new journal, or one whose header itself was torn: start it again.
                file.set_len(0)?;
                let header = Header {
                    work,
                    build: build.to_string(),
                };
                file.write_all(format!("{}\n", json(&header)).as_bytes())?;
            } else if dropped_torn {
                file.set_len(whole as u64)?;
            }
            Ok(file)
        };
        let file = created().map_err(|e| format!("journal {shown}: {e}"))?;
        Ok(Opened {
            journal: Journal {
                path: path.to_path_buf(),
                file: Mutex::new(file),
            },
            records,
            dropped_torn,
        })
    }

    /// Records a finished unit: one write of its whole line.
    pub fn append<R: Serialize>(&self, record: &R) -> Result<(), String> {
        let line = format!("{}\n", json(record));
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .map_err(|e| format!("journal {}: {e}", self.path.display()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the journal: its run is complete and its result written.
    pub fn remove(self) -> Result<(), String> {
        fs::remove_file(&self.path).map_err(|e| format!("journal {}: {e}", self.path.display()))
    }
}

/// One line of JSON (serialising the journal's own types cannot fail).
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("journal records serialise to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("frontier-journal-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = fs::remove_file(&path);
        path
    }

    fn open(path: &Path, work: &str) -> Result<Opened<u32>, String> {
        Journal::open(path, &work.to_string(), false)
    }

    #[test]
    fn records_survive_a_reopen_and_a_torn_last_record_is_dropped() {
        let path = temp("torn");
        let opened = open(&path, "4x4").unwrap();
        assert!(opened.records.is_empty());
        for r in [7u32, 8, 9] {
            opened.journal.append(&r).unwrap();
        }
        drop(opened);
        // A process killed while writing its fourth record.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"12").unwrap();
        drop(file);
        let opened = open(&path, "4x4").unwrap();
        assert_eq!(opened.records, [7, 8, 9]);
        assert!(opened.dropped_torn);
        opened.journal.append(&10u32).unwrap();
        drop(opened);
        let opened = open(&path, "4x4").unwrap();
        assert_eq!(opened.records, [7, 8, 9, 10]);
        assert!(!opened.dropped_torn);
    }

    #[test]
    fn another_runs_journal_is_refused() {
        let path = temp("other");
        open(&path, "4x4").unwrap().journal.append(&1u32).unwrap();
        let refused = open(&path, "4x5").err().unwrap();
        assert!(refused.contains("belongs to other work"), "{refused}");
        // The journal is left as it was.
        assert_eq!(open(&path, "4x4").unwrap().records, [1]);
    }

    #[test]
    fn another_builds_journal_is_refused_unless_accepted() {
        let path = temp("build");
        let header = Header {
            work: "4x4",
            build: "0000000".to_string(),
        };
        fs::write(&path, format!("{}\n5\n", json(&header))).unwrap();
        let refused = open(&path, "4x4").err().unwrap();
        assert!(refused.contains("--resume-any-build"), "{refused}");
        let accepted: Opened<u32> = Journal::open(&path, &"4x4".to_string(), true).unwrap();
        assert_eq!(accepted.records, [5]);
    }

    #[test]
    fn a_damaged_record_is_an_error_that_names_its_line() {
        let path = temp("damaged");
        open(&path, "4x4").unwrap().journal.append(&1u32).unwrap();
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"x\n").unwrap();
        drop(file);
        let refused = open(&path, "4x4").err().unwrap();
        assert!(refused.contains("line 3"), "{refused}");
    }
}
