//! `frontier show`: a level drawn, or a solution replayed and every step drawn, in the
//! terminal or as one animated SVG.

use std::io::IsTerminal;
use std::process::ExitCode;

use frontier::harness::levels::one_level;
use frontier::harness::runs;
use frontier::show;

use super::args::{Colour, ShowArgs};
use super::check::solution_text;
use super::output::emit;
use super::usage_error;

pub fn run(args: ShowArgs) -> ExitCode {
    let solution = match args.solution {
        Some(solution) => match solution_text(solution, &args.level_path) {
            Ok(solution) => Some(solution),
            Err(code) => return code,
        },
        None => None,
    };
    let task = match one_level(&args.level_path, args.game, args.level.as_deref()) {
        Ok(task) => task,
        Err(e) => return usage_error(e),
    };
    let solution = match (&args.from, solution) {
        (Some(csv), _) => match runs::solution(csv, task.as_ref()) {
            Ok(solution) => Some(solution),
            Err(e) => return usage_error(e),
        },
        (None, solution) => solution,
    };
    let replay = match task.show(solution.as_deref()) {
        Ok(replay) => replay,
        Err(e) => return usage_error(e),
    };
    let mut frames = replay.frames;
    if let Some(n) = args.step {
        let last = frames.last().map_or(0, |f| f.step);
        frames.retain(|f| f.step == n);
        if frames.is_empty() {
            return usage_error(format!("--step {n}: the replay has steps 0 to {last}"));
        }
    }
    let verdict = match &replay.verdict {
        None => None,
        Some(Ok(verdict)) => Some(verdict.message.clone()),
        Some(Err(why)) => Some(why.clone()),
    };
    if let Some(path) = &args.svg {
        let title = match &verdict {
            Some(verdict) => format!("{} ({}): {verdict}", task.name(), task.game()),
            None => format!("{} ({})", task.name(), task.game()),
        };
        let options = show::svg::Options {
            id: "f",
            title: &title,
            cell: 32.0,
        };
        let svg = show::svg::animation(&frames, &options);
        if let Err(failure) = emit(Some(path), &svg) {
            return failure;
        }
        eprintln!(
            "animation of {} frames ({} KiB) written to {}",
            frames.len(),
            svg.len().div_ceil(1024),
            path.display()
        );
    } else {
        let colour = match args.color {
            Colour::Always => true,
            Colour::Never => false,
            Colour::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        print!("{}", show::text::frames(&frames, colour).join("\n"));
    }
    match (&replay.verdict, verdict) {
        (Some(Ok(_)), Some(line)) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        (Some(Err(_)), Some(line)) => {
            println!("{line}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}
