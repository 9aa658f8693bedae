// Copyright 2024 The Example Authors. Licensed under MIT.

//! Defines all of the flags available in the command line tool.
//!
//! Each flag is a unit struct that implements the `Flag` trait.

use std::path::PathBuf;

/// A single command line flag: its names and how it updates the arguments.
pub trait Flag: Send + Sync {
    /// The long name, without the leading dashes.
    fn name_long(&self) -> &'static str;
    fn is_switch(&self) -> bool {
        false
    }
}

/// Search hidden files and directories too.
#[derive(Debug)]
struct Hidden;

impl Flag for Hidden {
    fn name_long(&self) -> &'static str {
        "hidden"
    }
    fn is_switch(&self) -> bool {
        true
    }
}

pub(crate) const MAX_DEPTH: usize = 32;

/// Parses the arguments into a configuration.
pub fn parse(args: &[String]) -> Result<Config, Error> {
    let mut config = Config::default();
    for arg in args {
        config.apply(arg)?;
    }
    Ok(config)
}

pub enum Mode { Search, Files }

macro_rules! flag {
    ($name:ident) => { struct $name; };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_is_a_switch() {
        assert!(Hidden.is_switch());
    }
}

#[cfg(not(test))]
fn now() -> u64 {
    std::time::SystemTime::now().elapsed().unwrap().as_secs()
}

#[cfg(test)]
thread_local! {
    static TESTTIME: std::cell::RefCell<Option<u64>> = None.into();
}
