//! `--distributed` and its options, as `solve` and `generate` take them: checked (a usage
//! error names the flag), then the cluster joined.

use std::time::Duration;

use frontier::distributed::{Cluster, Hosts, hostfile};

use super::args::ClusterArgs;

/// The cluster a `--distributed` run asked for, its options checked, not yet joined.
pub struct Plan {
    /// The hostfile's processes and this one's place (none: every worker in this process).
    hosts: Option<Hosts>,
    workers: usize,
    timeout: Duration,
}

impl ClusterArgs {
    /// The cluster asked for (`None` without `--distributed`), with `default_workers` workers
    /// unless `--workers` says; an error is a usage error.
    pub fn plan(&self, default_workers: usize) -> Result<Option<Plan>, String> {
        if !(self.connect_timeout.is_finite() && self.connect_timeout > 0.0) {
            return Err(format!(
                "--connect-timeout {}: expected a positive number of seconds",
                self.connect_timeout
            ));
        }
        if !self.distributed {
            return Ok(None);
        }
        let hosts = match (&self.hostfile, self.process) {
            (Some(path), Some(process)) => {
                let addresses = hostfile::read(path)?;
                if process >= addresses.len() {
                    return Err(format!(
                        "--process {process}: {} lists {} processes (0 to {})",
                        path.display(),
                        addresses.len(),
                        addresses.len() - 1
                    ));
                }
                Some(Hosts { addresses, process })
            }
            _ => None,
        };
        Ok(Some(Plan {
            hosts,
            workers: self.workers.map_or(default_workers, usize::from),
            timeout: Duration::from_secs_f64(self.connect_timeout),
        }))
    }
}

impl Plan {
    /// This process's workers, connected to every other process of the hostfile, all of which
    /// must agree on the run's `fingerprint`.
    pub fn join(self, fingerprint: u64) -> Result<Cluster, String> {
        match self.hosts {
            None => Cluster::local(self.workers),
            Some(hosts) => Cluster::connect(&hosts, self.workers, fingerprint, self.timeout),
        }
    }
}
