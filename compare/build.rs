//! Tells the binaries which cargo profile built them, so that each report
//! says how its code was optimised (a library user's default release build
//! and a whole-program-optimised one measure differently).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in [
        "CARGO_PROFILE_RELEASE_LTO",
        "CARGO_PROFILE_RELEASE_CODEGEN_UNITS",
        "CARGO_PROFILE_LTO_LTO",
        "CARGO_PROFILE_LTO_CODEGEN_UNITS",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    // OUT_DIR is `<target>/<profile>/build/<package>-<hash>/out`.
    let out = std::env::var("OUT_DIR").unwrap_or_default();
    let profile = std::path::Path::new(&out)
        .ancestors()
        .nth(3)
        .and_then(|p| p.file_name())
        .and_then(|p| p.to_str())
        .unwrap_or("unknown")
        .to_string();
    // Settings overridden from the environment, named in the report.
    let upper = profile.to_uppercase().replace('-', "_");
    let overrides: Vec<String> = ["LTO", "CODEGEN_UNITS"]
        .iter()
        .filter_map(|key| {
            let value = std::env::var(format!("CARGO_PROFILE_{upper}_{key}")).ok()?;
            Some(format!("{}={value}", key.to_lowercase().replace('_', "-")))
        })
        .collect();
    println!("cargo:rustc-env=COMPARE_PROFILE={profile}");
    println!(
        "cargo:rustc-env=COMPARE_PROFILE_OVERRIDES={}",
        overrides.join(" ")
    );
}
