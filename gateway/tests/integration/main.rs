//! The gateway's process-level integration tests in one binary (one link instead of one per file):
//! the `balcao` binary started for real, killed, failed over; and the deployment files checked.

mod deploy_files;
mod failover;
mod fault_processes;
