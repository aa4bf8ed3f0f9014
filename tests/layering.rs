//! The layering of DESIGN.md §2 as a test: every production file under `src/` may import only
//! folders on a lower floor (`api` > {`raster`, `glsl`} > `jit` > {`ir`, `sampler`} > leaf),
//! never a higher one and never sideways except where the table below allows it (and then in
//! one direction only, so folders never form a cycle). Test code (files that are only
//! compiled under `#[cfg(test)]` and items behind `#[cfg(test)]`) is exempt: a differential
//! test may well compare a low layer against a higher one.
//!
//! How: the source is read as text; comments and string literals are blanked; every path that
//! starts at `crate::` (including grouped `use crate::{a, b::c}`) or climbs out of its folder
//! through `super::` is resolved to the top-level module it names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The floor of each top-level module of the library (higher imports lower).
const FLOORS: &[(&str, u32)] = &[
    ("gl", 0),
    ("math", 0),
    ("extensions", 0),
    ("ir", 1),
    ("sampler", 1),
    ("jit", 2),
    ("raster", 3),
    ("glsl", 3),
    ("api", 4),
];

/// Same-floor imports that are allowed, importer → imported (never both ways).
const SIDEWAYS: &[(&str, &str)] = &[("ir", "sampler")];

/// What the crate root re-exports, mapped to the module that defines it.
const ROOT_REEXPORTS: &[(&str, &str)] = &[
    ("enums", "gl"),
    ("Context", "api"),
    ("current_context", "api"),
    ("entry_point_names", "api"),
    ("get_proc_address", "api"),
    ("make_current", "api"),
    ("SharedContext", "api"),
    ("supported_version", "api"),
    ("ContextAttribs", "api"),
    ("ContextError", "api"),
    ("Profile", "api"),
    ("Surface", "api"),
];

fn floor(module: &str) -> Option<u32> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|&(_, f)| f)
}

/// Blanks comments, string literals and char literals, keeping line structure.
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == b'"' {
            // A raw string's leading `r#` stays behind as harmless text.
            let hashes = src[..i].bytes().rev().take_while(|&h| h == b'#').count();
            i += 1;
            while i < b.len() {
                if b[i] == b'\\' && hashes == 0 {
                    i += 2;
                    continue;
                }
                if b[i] == b'"' && b[i + 1..].iter().take(hashes).all(|&h| h == b'#') {
                    i += 1 + hashes;
                    break;
                }
                if b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c == b'\'' && b.get(i + 2) == Some(&b'\'') {
            out.push_str("' '");
            i += 3;
        } else if c == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            let ch = src[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Removes every item that follows a `#[cfg(test)]` attribute (a `mod x;` line or a braced
/// item), returning the rest and the names of out-of-line modules declared test-only.
fn drop_test_items(src: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut test_mods = Vec::new();
    let mut rest = src;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        // The item ends at the first `;` before any `{`, or at the `}` matching its `{`.
        let semi = after.find(';');
        let brace = after.find('{');
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => {
                record_mod(&after[..s], &mut test_mods);
                s + 1
            }
            (Some(s), None) => {
                record_mod(&after[..s], &mut test_mods);
                s + 1
            }
            (_, Some(b)) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (k, ch) in after[b..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    (out, test_mods)
}

fn record_mod(decl: &str, mods: &mut Vec<String>) {
    let words: Vec<&str> = decl.split_whitespace().collect();
    if let Some(pos) = words.iter().position(|w| *w == "mod") {
        if let Some(name) = words.get(pos + 1) {
            mods.push(name.to_string());
        }
    }
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Reads the path segments that follow `at` (just after a `::`): a single identifier, or
/// the first identifier of every member of a `{ … }` group (nested groups included).
fn segments_at(code: &str, at: usize) -> Vec<String> {
    let b = code.as_bytes();
    let mut i = at;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i < b.len() && b[i] == b'{' {
        let mut names = Vec::new();
        let mut depth = 0usize;
        let mut expect_name = true;
        while i < b.len() {
            match b[i] {
                b'{' => {
                    depth += 1;
                    if depth == 1 {
                        expect_name = true;
                    }
                }
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b',' if depth == 1 => expect_name = true,
                c if depth == 1 && expect_name && is_ident_byte(c) => {
                    let start = i;
                    while i < b.len() && is_ident_byte(b[i]) {
                        i += 1;
                    }
                    names.push(code[start..i].to_string());
                    expect_name = false;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        names
    } else {
        let start = i;
        while i < b.len() && is_ident_byte(b[i]) {
            i += 1;
        }
        if i > start {
            vec![code[start..i].to_string()]
        } else {
            Vec::new()
        }
    }
}

/// The top-level modules a file's code names. `module_path` is the file's module path
/// (`["raster", "tile"]` for src/raster/tile.rs, `["raster"]` for src/raster/mod.rs).
fn referenced_modules(code: &str, module_path: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let b = code.as_bytes();
    let mut resolve = |seg: &str| {
        let top = ROOT_REEXPORTS
            .iter()
            .find(|(name, _)| *name == seg)
            .map(|(_, m)| m.to_string())
            .unwrap_or_else(|| seg.to_string());
        found.push(top);
    };
    for (at, _) in code.match_indices("crate::") {
        if at > 0 && (is_ident_byte(b[at - 1]) || b[at - 1] == b'$') {
            continue;
        }
        for seg in segments_at(code, at + "crate::".len()) {
            resolve(&seg);
        }
    }
    // `super::` chains: count the climbs; if they reach the crate root, the next segment is
    // a top-level module.
    let mut i = 0;
    while let Some(off) = code[i..].find("super::") {
        let at = i + off;
        i = at + 1;
        if at > 0 && (is_ident_byte(b[at - 1]) || b[at - 1] == b':') {
            continue;
        }
        let mut climbs = 0;
        let mut j = at;
        while code[j..].starts_with("super::") {
            climbs += 1;
            j += "super::".len();
        }
        if climbs >= module_path.len() {
            for seg in segments_at(code, j) {
                resolve(&seg);
            }
        }
    }
    found
}

/// A file's module path from its path under `src/`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Every upward or forbidden sideways import of the production files given as
/// (path under src/, source text), as readable lines.
fn violations(files: &[(PathBuf, String)]) -> Vec<String> {
    // Out-of-line modules declared `#[cfg(test)] mod x;` are test-only files.
    let mut test_files = Vec::new();
    let mut stripped = BTreeMap::new();
    for (rel, src) in files {
        let (code, test_mods) = drop_test_items(&strip(src));
        let dir = if rel
            .file_name()
            .is_some_and(|f| f == "mod.rs" || f == "lib.rs")
        {
            rel.parent().unwrap().to_path_buf()
        } else {
            rel.with_extension("")
        };
        for m in test_mods {
            test_files.push(dir.join(format!("{m}.rs")));
            test_files.push(dir.join(&m).join("mod.rs"));
        }
        stripped.insert(rel.clone(), code);
    }
    let mut bad = Vec::new();
    for (rel, code) in &stripped {
        if test_files
            .iter()
            .any(|t| rel.starts_with(t.with_extension("")) || rel == t)
        {
            continue;
        }
        let path = module_path(rel);
        let Some(own) = path.first() else { continue };
        let Some(own_floor) = floor(own) else {
            continue;
        };
        for target in referenced_modules(code, &path) {
            if &target == own {
                continue;
            }
            let ok = match floor(&target) {
                Some(f) if f < own_floor => true,
                Some(f) if f == own_floor => SIDEWAYS.contains(&(own.as_str(), target.as_str())),
                Some(_) => false,
                // Not a module of the floors (a std or crate name after `super::` at the
                // root cannot happen; anything else is a module outside the floors, which
                // lower layers must not use either).
                None => false,
            };
            if !ok {
                bad.push(format!(
                    "src/{}: `{own}` (floor {own_floor}) uses `{target}` (floor {})",
                    rel.display(),
                    floor(&target).map_or("none".to_string(), |f| f.to_string())
                ));
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

#[test]
fn no_production_file_imports_a_higher_floor() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let files: Vec<(PathBuf, String)> = paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap().to_path_buf();
            (rel, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    assert!(
        files.len() > 50,
        "found only {} files under src/",
        files.len()
    );
    let bad = violations(&files);
    assert!(
        bad.is_empty(),
        "imports against DESIGN.md §2's floors:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checker_sees_upward_imports_in_every_form() {
    let case = |rel: &str, src: &str| violations(&[(PathBuf::from(rel), src.to_string())]);
    // A plain use, a grouped use, an expression path and a root re-export, all upward.
    assert_eq!(case("sampler/x.rs", "use crate::jit::abi::Foo;").len(), 1);
    assert_eq!(
        case("jit/x.rs", "use crate::{ir::Module, raster::ops};").len(),
        1
    );
    assert_eq!(case("ir/x.rs", "fn f() { crate::api::thing(); }").len(), 1);
    assert_eq!(case("raster/x.rs", "use crate::Context;").len(), 1);
    // Climbing out of a folder with super:: reaches the root.
    assert_eq!(
        case("jit/x.rs", "use super::super::raster::StageData;").len(),
        1
    );
    assert_eq!(case("jit/mod.rs", "use super::raster::StageData;").len(), 1);
    // Sideways imports: allowed one way only.
    assert!(case("ir/x.rs", "use crate::sampler::request::TexOp;").is_empty());
    assert_eq!(case("sampler/x.rs", "use crate::ir::Module;").len(), 1);
    assert_eq!(case("raster/x.rs", "use crate::glsl::compile;").len(), 1);
    // Downward imports, comments, strings and test items are fine.
    assert!(case("raster/x.rs", "use crate::{gl::enums as gl, jit, sampler};").is_empty());
    assert!(case(
        "sampler/x.rs",
        "// see crate::api::Context\nlet s = \"crate::api\";"
    )
    .is_empty());
    assert!(case(
        "sampler/x.rs",
        "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::api::Context;\n}\n"
    )
    .is_empty());
    // A test-only out-of-line module's file is exempt, as is what it contains.
    let files = vec![
        (
            PathBuf::from("jit/mod.rs"),
            "#[cfg(test)]\nmod tests;\n".to_string(),
        ),
        (
            PathBuf::from("jit/tests.rs"),
            "use crate::raster::StageData;".to_string(),
        ),
    ];
    assert!(violations(&files).is_empty());
    // The leaf imports nothing of the crate.
    assert_eq!(case("gl/x.rs", "use crate::ir::Module;").len(), 1);
    assert_eq!(case("math.rs", "use crate::gl::enums;").len(), 1);
}
