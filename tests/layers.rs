//! The layering of `src/`: every `crate::` path in a module names its own layer or one
//! below it, as the table of layers in `src/lib.rs` lists them top-down.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers of `src/lib.rs`'s table, top-down: (layer, its modules).
fn layers(lib_rs: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for line in lib_rs.lines() {
        let Some(row) = line.strip_prefix("//! |") else {
            continue;
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if cells.len() < 3 || cells[0] == "layer" || cells[0].starts_with("---") {
            continue;
        }
        let modules = cells[1]
            .split_whitespace()
            .map(|m| {
                m.trim_matches(|c| c == '[' || c == ']' || c == '`')
                    .to_string()
            })
            .collect();
        out.push((cells[0].to_string(), modules));
    }
    out
}

/// Rank of each module: 0 for the top layer, growing downward.
fn ranks(layers: &[(String, Vec<String>)]) -> BTreeMap<String, (usize, String)> {
    let mut rank = BTreeMap::new();
    for (i, (layer, modules)) in layers.iter().enumerate() {
        for m in modules {
            rank.insert(m.clone(), (i, layer.clone()));
        }
    }
    rank
}

/// The top-level module a file of `src/` belongs to (`None` for `main.rs`, `lib.rs`).
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    match first.strip_suffix(".rs") {
        Some("main") | Some("lib") => None,
        Some(stem) => Some(stem.to_string()),
        None => Some(first),
    }
}

/// The top-level names that `crate::` paths in `code` reach, with their line numbers.
/// Comments are skipped: a doc link is not an import.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let before = rest[..i].chars().last();
            rest = &rest[i + "crate::".len()..];
            // `$crate::` in a macro is the same crate; `dama_crate::` would be another.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((n + 1, name));
            }
        }
    }
    out
}

/// Every upward or unknown `crate::` path in `files` (path relative to `src/`, text).
fn violations(lib_rs: &str, files: &[(PathBuf, String)]) -> Vec<String> {
    let layers = layers(lib_rs);
    let mut rank = ranks(&layers);
    // Items re-exported at the root, and exported macros, belong to their module's layer.
    for line in lib_rs.lines() {
        if let Some(rest) = line.trim().strip_prefix("pub use ") {
            let module = rest.split("::").next().unwrap_or("");
            if let Some(r) = rank.get(module).cloned() {
                let items = rest[module.len()..]
                    .trim_start_matches("::")
                    .trim_end_matches(';')
                    .trim_matches(|c| c == '{' || c == '}');
                for item in items.split(',') {
                    rank.insert(item.trim().to_string(), r.clone());
                }
            }
        }
    }
    for (rel, text) in files {
        for line in text.lines() {
            if let Some(name) = line.trim().strip_prefix("macro_rules! ") {
                let name = name.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
                if let Some(r) = module_of(rel).and_then(|m| rank.get(&m).cloned()) {
                    rank.insert(name.to_string(), r);
                }
            }
        }
    }
    let mut out = Vec::new();
    for (rel, text) in files {
        let Some(module) = module_of(rel) else {
            continue;
        };
        let Some((from, from_layer)) = rank.get(&module).cloned() else {
            out.push(format!(
                "src/{}: module `{module}` is in no layer of src/lib.rs",
                rel.display()
            ));
            continue;
        };
        for (line, name) in crate_paths(text) {
            match rank.get(&name) {
                None => out.push(format!(
                    "src/{}:{line}: crate::{name} is in no layer of src/lib.rs",
                    rel.display()
                )),
                Some((to, to_layer)) if *to < from => out.push(format!(
                    "src/{}:{line}: crate::{name} imports upward, from layer {from_layer} \
                     into layer {to_layer}",
                    rel.display()
                )),
                Some(_) => {}
            }
        }
    }
    out
}

fn rust_files(dir: &Path, root: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(root).unwrap().to_path_buf(), text));
        }
    }
}

fn src() -> (String, Vec<(PathBuf, String)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).unwrap();
    let mut files = Vec::new();
    rust_files(&root, &root, &mut files);
    (lib, files)
}

#[test]
fn imports_run_only_downward() {
    let (lib, files) = src();
    assert!(files.len() > 50, "src/ read: {} files", files.len());
    let bad = violations(&lib, &files);
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_module_is_in_exactly_one_layer() {
    let (lib, _) = src();
    let layers = layers(&lib);
    assert_eq!(
        layers.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
        ["cli", "serve", "learn", "play", "protocol", "engine", "egdb", "eval", "core"]
    );
    let mut listed: Vec<String> = layers.iter().flat_map(|(_, m)| m.clone()).collect();
    listed.sort();
    let mut declared: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect();
    declared.sort();
    assert_eq!(
        listed, declared,
        "the layer table and the `pub mod` lines of lib.rs"
    );
}

#[test]
fn an_upward_import_is_named() {
    let (lib, _) = src();
    let files = vec![
        (
            PathBuf::from("eval/upward.rs"),
            "use crate::types::Score;\n// use crate::cli::run; (a comment)\nuse crate::engine::Engine;\n"
                .to_string(),
        ),
        (
            PathBuf::from("position.rs"),
            "fn f() { crate::play::selfplay::openings::<R>(1, 2, 3); }".to_string(),
        ),
        (PathBuf::from("nowhere.rs"), String::new()),
    ];
    let bad = violations(&lib, &files);
    assert_eq!(
        bad,
        [
            "src/eval/upward.rs:3: crate::engine imports upward, from layer eval into layer engine",
            "src/position.rs:1: crate::play imports upward, from layer core into layer play",
            "src/nowhere.rs: module `nowhere` is in no layer of src/lib.rs",
        ]
    );
}
