//! The build a report comes from: which cargo profile compiled both
//! implementations (see `compare/Cargo.toml`).

/// One line naming the cargo profile and what it does to the code.
pub fn describe() -> String {
    let what = match env!("COMPARE_PROFILE") {
        "release" => {
            "profile `release`: cargo's defaults (thin local LTO, 16 codegen units), \
             what a program depending on both crates gets from `cargo build --release`"
        }
        "lto" => {
            "profile `lto` (`--profile lto`): fat LTO, one codegen unit, \
             a program that opts into whole-program optimisation"
        }
        "debug" => "profile `dev`: unoptimised, not a measurement",
        other => other,
    };
    match env!("COMPARE_PROFILE_OVERRIDES") {
        "" => format!("build: {what}"),
        overrides => format!("build: {what}; overridden from the environment: {overrides}"),
    }
}
